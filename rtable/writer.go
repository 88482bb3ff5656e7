package rtable

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/rangedel"
)

// WriterOptions configure a Writer. The zero value of a field means its
// default.
type WriterOptions struct {
	BloomBitsPerKey  int // 0 = no filter
	ValueCompression ValueCodec
	// FilterPrefixLen > 0 adds the first FilterPrefixLen bytes of every
	// key at least that long to the filter, and PrefixOnlyFilter then
	// leaves the whole keys out of it (prefixfilter.go).
	FilterPrefixLen  int
	PrefixOnlyFilter bool
}

// Properties describe a finished table.
type Properties struct {
	NumEntries, NumDeletions uint64
	RawKeySize, RawValueSize uint64 // keys counted with their 8-byte trailer, as RocksDB does
	SmallestSeq, LargestSeq  uint64
	SmallestKey, LargestKey  []byte // user keys, widened to the range tombstones; nil for an empty table
	NumRangeDeletions        uint64 // range tombstones (sequences over all fragments)
	FilterPrefixLen          int    // the length of the prefixes in the filter; 0: none
	PrefixOnlyFilter         bool   // the filter holds prefixes and no whole keys
	KeyBytes, IndexBytes     uint64 // keys section and key index section
	TrailerBytes, ValueBytes uint64 // trailers section; value area plus offsets and checksums
	FilterBytes, FileSize    uint64
	PackedKeys               bool       // keys stored as fixed-width integers with a spline index
	KeyWidth, TrailerWidth   int        // bytes per entry in the keys and trailers sections
	ValueCodec               ValueCodec // the codec the table uses (ValueDict may fall back to ValueSnappy)
	DictBytes                uint64     // the value dictionary (ValueDict), counted in ValueBytes
}

// Writer builds one table. Values stream to the output as they arrive;
// keys, trailers and value lengths are held until Finish, which chooses
// their encodings from the whole table. It is not safe for concurrent use.
type Writer struct {
	out  *bufio.Writer
	off  uint64
	opts WriterOptions
	// keys holds every user key back to back; keyEnds[i] is the end of
	// key i in it.
	keys    []byte
	keyEnds []uint32
	// keyLen is the length of every key so far, or -1 once they differ.
	keyLen int
	// trailers is nil while every trailer equals firstTrailer.
	trailers     []uint64
	firstTrailer uint64
	// valueEnds is nil while every value has valueLen bytes; otherwise
	// the end of each value in the value area.
	valueEnds []uint64
	valueLen  int
	// groupCRC accumulates the current value group; groupCRCs the
	// finished ones.
	groupCRC  uint32
	groupCRCs []uint32
	props     Properties
	err       error
	finished  bool
	// packed is scratch for a compressed value.
	packed []byte
	// values is the number of values stored so far; areaStart is the
	// file offset of the value area (the dictionary's length, else 0).
	values    uint64
	areaStart uint64
	// codec is the codec the table stores its values in; dictChosen is
	// false while a ValueDict writer is still sampling values (sample,
	// sampleEnds) to choose its dictionary from.
	codec      ValueCodec
	dictChosen bool
	sample     []byte
	sampleEnds []int
	dict       *dictEncoder
	// rangeDels are the table's range tombstones (SetRangeDels).
	rangeDels *rangedel.List
}

// NewWriter returns a Writer that writes a table to w.
func NewWriter(w io.Writer, opts WriterOptions) *Writer {
	return &Writer{out: bufio.NewWriterSize(w, 256<<10), opts: opts, keyLen: -1, codec: opts.ValueCompression}
}

// Add appends an entry. Entries must arrive in internal-key order: user key
// ascending (bytewise), then seq descending.
func (w *Writer) Add(userKey []byte, seq uint64, kind base.Kind, value []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.finished {
		return fmt.Errorf("rtable: Add after Finish")
	}
	if !kind.Valid() {
		return fmt.Errorf("rtable: unknown kind %d", kind)
	}
	if w.opts.ValueCompression > ValueDict {
		return fmt.Errorf("rtable: unknown value compression %d", w.opts.ValueCompression)
	}
	if seq > base.MaxSeq {
		return fmt.Errorf("rtable: sequence number %d does not fit in 56 bits", seq)
	}
	n := w.props.NumEntries
	if uint64(len(w.keys))+uint64(len(userKey)) > math.MaxUint32 {
		return fmt.Errorf("rtable: entry too large (key %d bytes, value %d bytes): the keys of a table must fit in 4 GiB", len(userKey), len(value))
	}
	tr := uint64(base.MakeTrailer(seq, kind))
	if n == 0 {
		w.keyLen, w.firstTrailer = len(userKey), tr
		w.props.SmallestSeq, w.props.LargestSeq = seq, seq
	} else {
		last := w.key(n - 1)
		c := bytes.Compare(userKey, last)
		if c < 0 || (c == 0 && seq >= base.Trailer(w.lastTrailer()).Seq()) {
			return fmt.Errorf("rtable: entry (%q, seq %d) out of order after (%q, seq %d)", userKey, seq, last, base.Trailer(w.lastTrailer()).Seq())
		}
		if len(userKey) != w.keyLen {
			w.keyLen = -1
		}
	}
	if w.trailers == nil && tr != w.firstTrailer {
		w.trailers = make([]uint64, n, max(2*n, 1024))
		for i := range w.trailers {
			w.trailers[i] = w.firstTrailer
		}
	}
	if w.trailers != nil {
		w.trailers = append(w.trailers, tr)
	}
	w.keys = append(w.keys, userKey...)
	w.keyEnds = append(w.keyEnds, uint32(len(w.keys)))
	if err := w.addValue(value); err != nil {
		return err
	}
	p := &w.props
	p.NumEntries++
	if kind == base.KindDelete {
		p.NumDeletions++
	}
	p.RawKeySize += uint64(len(userKey)) + base.TrailerLen
	p.RawValueSize += uint64(len(value))
	p.SmallestSeq = min(p.SmallestSeq, seq)
	p.LargestSeq = max(p.LargestSeq, seq)
	return nil
}

// CoverSeq widens the table's recorded sequence range to seq without
// adding an entry: a compaction that writes an entry at sequence 0 calls
// it after Add with the sequence the entry had, so that the range still
// says which writes the table holds (the open's check of tables in no
// version relies on it; see lsm's obsoleteTables). It does nothing before
// the first Add.
func (w *Writer) CoverSeq(seq uint64) {
	if w.props.NumEntries > 0 {
		w.props.SmallestSeq = min(w.props.SmallestSeq, seq)
		w.props.LargestSeq = max(w.props.LargestSeq, seq)
	}
}

func (w *Writer) key(i uint64) []byte {
	start := uint32(0)
	if i > 0 {
		start = w.keyEnds[i-1]
	}
	return w.keys[start:w.keyEnds[i]]
}

func (w *Writer) lastTrailer() uint64 {
	if w.trailers == nil {
		return w.firstTrailer
	}
	return w.trailers[len(w.trailers)-1]
}

// EstimatedSize returns the bytes the table would have if finished now,
// roughly: values written plus keys and a few bytes per entry.
func (w *Writer) EstimatedSize() uint64 {
	return w.off + uint64(len(w.sample)) + uint64(len(w.keys)) + 4*w.props.NumEntries
}

// Finish writes the sections, the meta section and the footer. It does not
// close the underlying writer.
func (w *Writer) Finish() (Properties, error) {
	if w.err != nil {
		return Properties{}, w.err
	}
	if w.finished {
		return Properties{}, fmt.Errorf("rtable: Finish called twice")
	}
	w.finished = true
	if err := w.finishValues(); err != nil {
		return Properties{}, err
	}
	n := w.props.NumEntries
	if n%groupLen != 0 {
		w.groupCRCs = append(w.groupCRCs, w.groupCRC)
	}
	p := &w.props
	if n > 0 {
		p.SmallestKey = bytes.Clone(w.key(0))
		p.LargestKey = bytes.Clone(w.key(n - 1))
	}
	coverRangeDels(p, w.rangeDels)
	m := meta{
		entries: n, deletions: w.props.NumDeletions,
		rawKeyBytes: w.props.RawKeySize, valueAreaBytes: w.off - w.areaStart, rawValueBytes: w.props.RawValueSize,
		valueCodec: uint64(w.codec), dictBytes: w.areaStart,
		smallestSeq: w.props.SmallestSeq, largestSeq: w.props.LargestSeq,
	}
	if w.codec == ValueDict {
		m.dictCRC = checksum(w.dict.dict)
	}
	var sec [numSections][]byte
	var hashes []uint64
	withFilter := w.opts.BloomBitsPerKey > 0 && n > 0
	prefixLen := w.opts.FilterPrefixLen
	if !withFilter {
		prefixLen = 0
	}
	withHashes := withFilter && (prefixLen == 0 || !w.opts.PrefixOnlyFilter)
	if pre, suf, width, ok := w.packedLayout(); ok {
		m.keyMode, m.keyLen, m.keyWidth = keysPacked, uint64(w.keyLen), uint64(width)
		m.prefix, m.suffix = pre, suf
		sec[secKeys], sec[secIndex], hashes = w.packKeys(len(pre), width, withHashes)
	} else {
		m.keyMode = keysVariable
		if n > 0 {
			m.prefix = commonPrefix(w.key(0), w.key(n-1))
		}
		sec[secKeys], sec[secIndex], hashes = w.variableKeys(len(m.prefix), withHashes)
	}
	if prefixLen > 0 {
		hashes = w.appendPrefixHashes(hashes)
	}
	m.wholeKeys = true
	if prefixLen > 0 && len(hashes) > 0 {
		// A filter of no keys at all (prefixes only, no key long
		// enough for one) is left out, and no prefixes recorded.
		m.filterPrefixLen, m.wholeKeys = uint64(prefixLen), !w.opts.PrefixOnlyFilter
	}
	if !w.rangeDels.Empty() {
		sec[secRangeDels] = w.rangeDels.Encode(nil)
		m.rangeDels = p.NumRangeDeletions
	}
	extended := m.filterPrefixLen > 0 || m.rangeDels > 0
	var version uint32
	m.trailerWidth, m.baseTrailer, sec[secTrailers], version = w.trailerColumn(extended)
	if w.valueEnds == nil {
		m.valueLen = uint64(w.valueLen) + 1
	} else {
		m.offsetWidth, sec[secOffsets] = w.offsetColumn()
	}
	for _, c := range w.groupCRCs {
		sec[secChecksums] = binary.LittleEndian.AppendUint32(sec[secChecksums], c)
	}
	if len(hashes) > 0 {
		probes := filterProbesFor(w.opts.BloomBitsPerKey)
		m.filterProbes = uint64(probes)
		sec[secFilter] = buildFilter(hashes, w.opts.BloomBitsPerKey, probes)
	}
	for i, b := range sec {
		m.sections[i] = section{offset: w.off, length: uint64(len(b)), crc: checksum(b)}
		if err := w.write(b); err != nil {
			return Properties{}, err
		}
	}
	mb := m.encode(nil, version)
	f := footer{metaOffset: w.off, metaLen: uint32(len(mb)), metaCRC: checksum(mb), version: version}
	if err := w.write(mb); err != nil {
		return Properties{}, err
	}
	if err := w.write(f.encode(nil)); err != nil {
		return Properties{}, err
	}
	if err := w.out.Flush(); err != nil {
		w.err = fmt.Errorf("rtable: write: %w", err)
		return Properties{}, w.err
	}
	p.KeyBytes, p.IndexBytes = uint64(len(sec[secKeys])), uint64(len(sec[secIndex]))
	p.TrailerBytes, p.FilterBytes = uint64(len(sec[secTrailers])), uint64(len(sec[secFilter]))
	p.ValueBytes = m.dictBytes + m.valueAreaBytes + uint64(len(sec[secOffsets])+len(sec[secChecksums]))
	p.FileSize = w.off
	p.PackedKeys, p.KeyWidth, p.TrailerWidth = m.keyMode == keysPacked, int(m.keyWidth), int(m.trailerWidth)
	p.ValueCodec, p.DictBytes = w.codec, m.dictBytes
	p.FilterPrefixLen, p.PrefixOnlyFilter = int(m.filterPrefixLen), !m.wholeKeys
	return *p, nil
}

func (w *Writer) write(b []byte) error {
	if _, err := w.out.Write(b); err != nil {
		w.err = fmt.Errorf("rtable: write: %w", err)
		return w.err
	}
	w.off += uint64(len(b))
	return nil
}

// packedLayout decides whether the keys can be packed: all of one nonzero
// length, differing only in at most 8 bytes between a common prefix and a
// common suffix. It returns the prefix, the suffix and the width.
func (w *Writer) packedLayout() (prefix, suffix []byte, width int, ok bool) {
	n := w.props.NumEntries
	if n == 0 || w.keyLen <= 0 {
		return nil, nil, 0, false
	}
	first := w.key(0)
	prefix = commonPrefix(first, w.key(n-1))
	s := w.keyLen - len(prefix)
	for i := uint64(1); i < n && s > 0; i++ {
		k := w.key(i)
		for s > 0 && !bytes.Equal(k[w.keyLen-s:], first[w.keyLen-s:]) {
			s--
		}
	}
	width = w.keyLen - len(prefix) - s
	if width == 0 {
		// Every key is the same: keep one byte to store.
		if s > 0 {
			s--
		} else {
			prefix = prefix[:len(prefix)-1]
		}
		width = 1
	}
	if width > 8 {
		return nil, nil, 0, false
	}
	return prefix, first[w.keyLen-s:], width, true
}

func commonPrefix(a, b []byte) []byte {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}

// varyingPart reads width bytes of k at p as a big-endian integer.
func varyingPart(k []byte) uint64 {
	var v uint64
	for _, c := range k {
		v = v<<8 | uint64(c)
	}
	return v
}

// packKeys encodes the keys and index sections of a packed-key table and
// the filter hashes of its distinct keys.
func (w *Writer) packKeys(prefixLen, width int, withHashes bool) (keys, index []byte, hashes []uint64) {
	n := w.props.NumEntries
	keys = make([]byte, 0, n*uint64(width)+packPad)
	sb := newSplineBuilder(SplineError)
	var last uint64
	for i := range n {
		v := varyingPart(w.key(i)[prefixLen : prefixLen+width])
		keys = appendPacked(keys, v, width)
		if i == 0 || v != last {
			sb.add(v, i)
			if withHashes {
				hashes = append(hashes, hashPacked(v))
			}
		}
		last = v
	}
	keys = append(keys, make([]byte, packPad)...)
	return keys, sb.finish(nil), hashes
}

// variableKeys encodes the keys and index sections of a variable-key
// table and the filter hashes of its distinct keys.
func (w *Writer) variableKeys(prefixLen int, withHashes bool) (keys, index []byte, hashes []uint64) {
	n := w.props.NumEntries
	keys = make([]byte, 4*(n+1), 4*(n+1)+uint64(len(w.keys))-n*uint64(prefixLen))
	var last []byte
	for i := range n {
		k := w.key(i)[prefixLen:]
		keys = append(keys, k...)
		binary.LittleEndian.PutUint32(keys[4*(i+1):], uint32(len(keys))-4*uint32(n+1))
		if i%sampleEvery == 0 {
			index = binary.LittleEndian.AppendUint64(index, keyPrefix8(k))
		}
		if withHashes && (i == 0 || !bytes.Equal(k, last)) {
			hashes = append(hashes, hashBytes(k))
		}
		last = k
	}
	return keys, index, hashes
}

// trailerColumn returns the trailer width, the base trailer, the trailers
// section and the format version it needs: per entry, its sequence number
// minus the smallest, shifted left by the kind bits, or'ed with its kind.
// The kind takes one bit (version 1) unless a merge operand needs two
// (version 2), or the table needs version 3 (extended), which has two.
func (w *Writer) trailerColumn(extended bool) (width, baseTrailer uint64, col []byte, version uint32) {
	version = 1
	if extended {
		version = versionExtended
	}
	if w.trailers == nil {
		if w.props.NumEntries == 0 {
			return 0, uint64(base.MakeTrailer(0, base.KindSet)), nil, version
		}
		return 0, w.firstTrailer, nil, version
	}
	lo, hi := w.trailers[0]>>8, w.trailers[0]>>8
	for _, t := range w.trailers {
		lo, hi = min(lo, t>>8), max(hi, t>>8)
		if base.Trailer(t).Kind() == base.KindMerge {
			version = max(version, 2)
		}
	}
	kb := kindBits(version)
	wd := widthFor((hi-lo)<<kb | (1<<kb - 1))
	col = make([]byte, 0, len(w.trailers)*wd+packPad)
	for _, t := range w.trailers {
		col = appendPacked(col, (t>>8-lo)<<kb|t&0xff, wd)
	}
	return uint64(wd), uint64(base.MakeTrailer(lo, 0)), append(col, make([]byte, packPad)...), version
}

// offsetColumn returns the value offset width and the value offsets
// section: the start of each group, then each value's end relative to its
// group's start.
func (w *Writer) offsetColumn() (width uint64, col []byte) {
	n := uint64(len(w.valueEnds))
	groups := (n + groupLen - 1) / groupLen
	var span uint64
	for g := range groups {
		start := w.valueStart(g * groupLen)
		col = binary.LittleEndian.AppendUint64(col, start)
		span = max(span, w.valueEnds[min(n, (g+1)*groupLen)-1]-start)
	}
	wd := widthFor(span)
	for i, end := range w.valueEnds {
		col = appendPacked(col, end-w.valueStart(uint64(i)&^(groupLen-1)), wd)
	}
	return uint64(wd), append(col, make([]byte, packPad)...)
}

func (w *Writer) valueStart(i uint64) uint64 {
	if i == 0 {
		return 0
	}
	return w.valueEnds[i-1]
}
