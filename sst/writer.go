package sst

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/internal/rangedel"
)

// WriterOptions configure a Writer. The zero value of a field means its
// default.
type WriterOptions struct {
	BlockSize            int // target uncompressed data block size (default 4096)
	BlockRestartInterval int // default 16
	BloomBitsPerKey      int // 0 = no filter
	Compression          Compression
	CompressionLevel     int // 0 = library default
	// FilterPrefixLen > 0 adds the keys' prefixes of that many bytes to
	// the filter; PrefixOnlyFilter then leaves the whole keys out
	// (prefixfilter.go).
	FilterPrefixLen  int
	PrefixOnlyFilter bool
	// Checksum checks every block; the zero value is ChecksumCRC32C.
	Checksum ChecksumType
	// CompressIndex stores the index block compressed like a data block
	// (RocksDB's enable_index_compression); false stores it raw.
	CompressIndex bool
	// CompressKeyBlocks stores key blocks compressed like value blocks;
	// false stores them raw. Every point lookup and seek that misses the
	// cache decodes its key block, while keys are a small share of a
	// pair's bytes: at db_bench's defaults (16-byte keys, snappy) the key
	// blocks snappy halves are a tenth of the tables' bytes, and their
	// decode was 7% of readrandom's CPU (docs/BENCHMARKS.md).
	CompressKeyBlocks bool
	// FormatVersion is the version to write: 0 means FormatVersion; 1
	// writes the first format (footer without a checksum type, plain
	// CRC32C trailers, raw index), which needs Checksum ChecksumCRC32C and
	// ignores CompressIndex.
	FormatVersion uint32
	// PartitionIndex cuts the index into partitions of about
	// MetadataBlockSize bytes under a top-level index (RocksDB's
	// kTwoLevelIndexSearch; format version 3, partitioned.go).
	// PartitionFilters cuts the filter at the same boundaries, one filter
	// partition per index partition (RocksDB's partition_filters); it
	// needs PartitionIndex and a filter.
	PartitionIndex    bool
	PartitionFilters  bool
	MetadataBlockSize int // default 4096
	// ExpectedKeys, when known (a flush knows its memtables' entries), is
	// at least how many keys the table will hold. A whole-key filter of
	// more than directFilterMin keys is then built as the keys arrive,
	// sized for ExpectedKeys (filterbuild.go); a smaller one, or one of
	// prefixes, collects its hashes in one buffer of that size rather
	// than one grown by doubling, which would leave as much again in
	// garbage. Only a filter of more than directFilterMin keys, fewer
	// than ExpectedKeys, differs from the one written without the hint:
	// it has the lines of ExpectedKeys keys.
	ExpectedKeys int
}

// maxExpectedKeys caps the hash buffer ExpectedKeys sizes ahead (128 MiB).
const maxExpectedKeys = 1 << 24

// Writer builds one table. It is not safe for concurrent use.
type Writer struct {
	w     io.Writer
	opts  WriterOptions
	off   uint64
	block keyBlockWriter
	comp  *compressor
	// index holds the encoded index entries of the blocks written (with
	// PartitionIndex, of the current partition's blocks), blocks counts them.
	index  []byte
	blocks int
	// filter collects the filter's keys (of the current partition's keys
	// with PartitionFilters).
	filter filterBuilder
	// parts are the finished partitions, with PartitionIndex.
	parts partitionWriter
	// lastKey/lastSeq are the previous entry, for the order check and the
	// index separators.
	lastKey  []byte
	lastSeq  uint64
	props    Properties
	err      error
	finished bool
	// out batches writes: one Write per writeBufferSize bytes instead of
	// four per data block pair (a 1M-entry table of 4 KiB pairs would
	// otherwise make ~120,000 write calls).
	out []byte
	// rangeDels are the table's range tombstones (SetRangeDels).
	rangeDels *rangedel.List
}

const writeBufferSize = 256 << 10

// NewWriter returns a Writer that writes a table to w.
func NewWriter(w io.Writer, opts WriterOptions) *Writer {
	if opts.BlockSize <= 0 {
		opts.BlockSize = 4096
	}
	if opts.BlockRestartInterval <= 0 {
		opts.BlockRestartInterval = 16
	}
	wr := &Writer{w: w, opts: opts}
	wr.block.interval = opts.BlockRestartInterval
	wr.comp, wr.err = newCompressor(opts.Compression, opts.CompressionLevel)
	if !opts.Checksum.valid() {
		wr.err = fmt.Errorf("sst: unknown checksum type %d", opts.Checksum)
	}
	wr.props.Compression = opts.Compression
	switch opts.FormatVersion {
	case 0:
		wr.opts.FormatVersion = FormatVersion
	case formatVersion1:
		if opts.Checksum != ChecksumCRC32C {
			wr.err = fmt.Errorf("sst: format version 1 checks blocks with CRC32C only, not %v", opts.Checksum)
		}
		wr.opts.Checksum, wr.opts.CompressIndex = checksumCRC32CUnmasked, false
	case FormatVersion:
	case formatVersionPartitioned:
		wr.opts.PartitionIndex = true
	default:
		wr.err = fmt.Errorf("sst: unknown format version %d", opts.FormatVersion)
	}
	wr.checkPartitionOptions()
	wr.props.FormatVersion = wr.opts.FormatVersion
	wr.props.Checksum = wr.opts.Checksum
	if opts.BloomBitsPerKey > 0 && opts.FilterPrefixLen > 0 {
		wr.props.FilterPrefixLen, wr.props.PrefixOnlyFilter = opts.FilterPrefixLen, opts.PrefixOnlyFilter
	}
	if opts.BloomBitsPerKey > 0 {
		expected := opts.ExpectedKeys
		if wr.opts.PartitionFilters {
			expected = 0
		}
		wr.filter.init(opts.BloomBitsPerKey, expected, opts.FilterPrefixLen <= 0)
	}
	return wr
}

// Add appends an entry. Entries must arrive in internal-key order: user key
// ascending (bytewise), then seq descending. Returns an error on misordered
// input.
func (w *Writer) Add(userKey []byte, seq uint64, kind base.Kind, value []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.finished {
		return fmt.Errorf("sst: Add after Finish")
	}
	if !kind.Valid() {
		return fmt.Errorf("sst: unknown kind %d", kind)
	}
	if seq > base.MaxSeq {
		return fmt.Errorf("sst: sequence number %d does not fit in 56 bits", seq)
	}
	if len(userKey) > MaxKeyLen || len(value) > MaxValueLen {
		return fmt.Errorf("sst: entry too large (key %d bytes, value %d bytes)", len(userKey), len(value))
	}
	if w.props.NumEntries > 0 {
		c := bytes.Compare(userKey, w.lastKey)
		if c < 0 || (c == 0 && seq >= w.lastSeq) {
			return fmt.Errorf("sst: entry (%q, seq %d) out of order after (%q, seq %d)", userKey, seq, w.lastKey, w.lastSeq)
		}
	}
	newKey := w.props.NumEntries == 0 || !bytes.Equal(userKey, w.lastKey)
	if w.block.entries > 0 && w.block.size() >= w.opts.BlockSize {
		if err := w.flushBlock(userKey); err != nil {
			return err
		}
	}
	// After the flush: a key goes into the filter partition of the block
	// that holds its first version.
	if newKey && w.opts.BloomBitsPerKey > 0 {
		w.addFilterKeys(userKey, w.filterPrev())
	}
	if w.props.NumEntries == 0 {
		w.props.SmallestKey = append([]byte(nil), userKey...)
		w.props.SmallestSeq, w.props.LargestSeq = seq, seq
	}
	w.block.add(userKey, base.MakeTrailer(seq, kind), value)
	w.lastKey = append(w.lastKey[:0], userKey...)
	w.lastSeq = seq
	p := &w.props
	p.NumEntries++
	if kind == base.KindDelete {
		p.NumDeletions++
	}
	p.RawKeySize += uint64(len(userKey)) + 8
	p.RawValueSize += uint64(len(value))
	p.SmallestSeq = min(p.SmallestSeq, seq)
	p.LargestSeq = max(p.LargestSeq, seq)
	return nil
}

// CoverSeq widens the table's recorded sequence range to seq without
// adding an entry: a compaction that writes an entry at sequence 0 (a value
// every snapshot sees, in a bottommost output) calls it after Add with the
// sequence the entry had, so that the range still says which writes the
// table holds. An open that finds the table in no version judges it
// obsolete or lost by that range; a range of 0..0 would pass a table the
// MANIFEST lost for obsolete. It does nothing before the first Add.
func (w *Writer) CoverSeq(seq uint64) {
	if w.props.NumEntries > 0 {
		w.props.SmallestSeq = min(w.props.SmallestSeq, seq)
		w.props.LargestSeq = max(w.props.LargestSeq, seq)
	}
}

// SetRangeDels gives the table the range tombstones of l, written by
// Finish to the range-deletion block. The table's key range and sequence
// range grow to cover them, so a table may hold tombstones only.
func (w *Writer) SetRangeDels(l *rangedel.List) { w.rangeDels = l }

// flushBlock writes the pending key and value blocks and their index entry,
// whose separator lies between the block's last key and next (nil at the
// end of the table).
func (w *Writer) flushBlock(next []byte) error {
	keys := w.block.finishKeys()
	kh, err := w.writeBlock(keys, w.opts.CompressKeyBlocks)
	if err != nil {
		return err
	}
	vh, err := w.writeBlock(w.block.values, true)
	if err != nil {
		return err
	}
	sep := w.block.lastKey
	if next != nil {
		sep = separator(w.block.lastKey, next)
	}
	if invariants.Enabled {
		checkSeparator(w.block.lastKey, sep, next)
	}
	w.index = binary.AppendUvarint(w.index, uint64(len(sep)))
	w.index = append(w.index, sep...)
	w.index = binary.AppendUvarint(w.index, kh.Offset)
	w.index = binary.AppendUvarint(w.index, uint64(kh.Len))
	w.index = binary.AppendUvarint(w.index, uint64(vh.Len))
	w.blocks++
	w.props.DataSize += uint64(kh.Len) + uint64(vh.Len) + 2*blockTrailerLen
	w.block.reset()
	if w.opts.PartitionIndex && len(w.index) >= w.opts.MetadataBlockSize {
		w.cutPartition(sep)
	}
	return nil
}

// separator returns a short key s with a <= s < b (or s == a when a == b,
// which happens when the versions of one user key span two blocks).
func separator(a, b []byte) []byte {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i >= len(a) || i >= len(b) {
		return a // a is a prefix of b, or equal to it
	}
	if a[i]+1 < b[i] {
		s := append([]byte(nil), a[:i+1]...)
		s[i]++
		return s
	}
	// a[i]+1 == b[i]: keep a[i] and bump the first later byte of a that
	// can be bumped; the result stays below b because of position i.
	for j := i + 1; j < len(a)-1; j++ {
		if a[j] != 0xff {
			s := append([]byte(nil), a[:j+1]...)
			s[j]++
			return s
		}
	}
	return a
}

// writeBlock writes one block and its trailer, compressing if allowed.
// The block and its compression byte are copied into the output buffer
// first and checksummed there, in one pass over contiguous bytes as the
// reader checks them.
func (w *Writer) writeBlock(raw []byte, compress bool) (handle, error) {
	if w.err != nil {
		return handle{}, w.err
	}
	stored, kind := raw, CompressionNone
	if compress {
		stored, kind = w.comp.compress(raw)
	}
	h := handle{Offset: w.off, Len: uint32(len(stored))}
	start := len(w.out)
	w.out = append(w.out, stored...)
	w.out = append(w.out, byte(kind))
	w.out = binary.LittleEndian.AppendUint32(w.out, w.opts.Checksum.sum(w.out[start:]))
	w.off += uint64(len(stored)) + blockTrailerLen
	if len(w.out) >= writeBufferSize {
		return h, w.flushOut()
	}
	return h, nil
}

func (w *Writer) write(b []byte) error {
	if w.err != nil {
		return w.err
	}
	w.out = append(w.out, b...)
	w.off += uint64(len(b))
	if len(w.out) >= writeBufferSize {
		return w.flushOut()
	}
	return nil
}

// flushOut hands the buffered bytes to the underlying writer.
func (w *Writer) flushOut() error {
	if w.err != nil {
		return w.err
	}
	if _, err := w.w.Write(w.out); err != nil {
		w.err = fmt.Errorf("sst: write: %w", err)
		return w.err
	}
	w.out = w.out[:0]
	return nil
}

// EstimatedSize returns the bytes written so far (buffered or not) plus the
// pending block.
func (w *Writer) EstimatedSize() uint64 {
	return w.off + uint64(w.block.size())
}

// Finish writes the last block, the filter, the index, the properties and
// the footer. It does not close the underlying writer.
func (w *Writer) Finish() (Properties, error) {
	if w.err != nil {
		return Properties{}, w.err
	}
	if w.finished {
		return Properties{}, fmt.Errorf("sst: Finish called twice")
	}
	w.finished = true
	if w.block.entries > 0 {
		if err := w.flushBlock(nil); err != nil {
			return Properties{}, err
		}
	}
	f := footer{Version: w.opts.FormatVersion, Checksum: w.opts.Checksum}
	if w.opts.PartitionIndex && w.blocks > 0 {
		w.cutPartition(w.lastKey)
	}
	if err := w.writeFilter(&f); err != nil {
		return Properties{}, err
	}
	if !w.rangeDels.Empty() {
		h, err := w.writeBlock(w.rangeDels.Encode(nil), false)
		if err != nil {
			return Properties{}, err
		}
		w.props.rangeDels = h
		w.props.NumRangeDeletions = uint64(w.rangeDels.Count())
	}
	if err := w.writeIndex(&f); err != nil {
		return Properties{}, err
	}
	w.props.LargestKey = append([]byte(nil), w.lastKey...)
	if w.props.NumEntries == 0 {
		w.props.SmallestKey, w.props.LargestKey = nil, nil
	}
	w.coverRangeDels()
	var err error
	if f.Props, err = w.writeBlock(w.props.encode(nil), false); err != nil {
		return Properties{}, err
	}
	if err := w.write(f.encode(nil)); err != nil {
		return Properties{}, err
	}
	if err := w.flushOut(); err != nil {
		return Properties{}, err
	}
	w.props.FileSize = w.off
	return w.props, nil
}

// writeFilter writes the filter block, or with PartitionFilters the
// filter partitions and the top-level filter index, and records them in f.
func (w *Writer) writeFilter(f *footer) error {
	if w.opts.BloomBitsPerKey <= 0 {
		return nil
	}
	if w.opts.PartitionFilters {
		return w.writeFilterPartitions(f)
	}
	h, err := w.writeBlock(w.filter.block(), false)
	if err != nil {
		return err
	}
	f.Filter = h
	w.props.FilterSize = uint64(h.Len) + blockTrailerLen
	return nil
}

// writeIndex writes the index block, or with PartitionIndex the index
// partitions and the top-level index, and records them in f.
func (w *Writer) writeIndex(f *footer) error {
	if w.opts.PartitionIndex {
		return w.writeIndexPartitions(f)
	}
	index := binary.AppendUvarint(make([]byte, 0, len(w.index)+binary.MaxVarintLen64), uint64(w.blocks))
	index = append(index, w.index...)
	h, err := w.writeBlock(index, w.opts.CompressIndex)
	if err != nil {
		return err
	}
	f.Index = h
	w.props.IndexSize = uint64(h.Len) + blockTrailerLen
	return nil
}

// coverRangeDels widens the key and sequence ranges of the properties to
// the range tombstones: the smallest start and the largest (exclusive) end
// become key bounds, as RocksDB's file boundaries do.
func (w *Writer) coverRangeDels() {
	if w.rangeDels.Empty() {
		return
	}
	p := &w.props
	lo, hi := w.rangeDels.Bounds()
	sLo, sHi := w.rangeDels.SeqRange()
	if p.NumEntries == 0 {
		p.SmallestKey = append([]byte(nil), lo...)
		p.LargestKey = append([]byte(nil), hi...)
		p.SmallestSeq, p.LargestSeq = sLo, sHi
		return
	}
	if bytes.Compare(lo, p.SmallestKey) < 0 {
		p.SmallestKey = append([]byte(nil), lo...)
	}
	if bytes.Compare(hi, p.LargestKey) > 0 {
		p.LargestKey = append([]byte(nil), hi...)
	}
	p.SmallestSeq = min(p.SmallestSeq, sLo)
	p.LargestSeq = max(p.LargestSeq, sHi)
}
