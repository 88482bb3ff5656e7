package sst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/bloom"
	"github.com/godbbench/godbbench/internal/fileops"
	"github.com/godbbench/godbbench/internal/mmapfault"
	"github.com/godbbench/godbbench/internal/rangedel"
	"github.com/godbbench/godbbench/internal/statistics"
)

// ReaderOptions configure Open.
type ReaderOptions struct {
	Cache           *Cache // nil: no block cache
	Mmap            bool   // map the file and read blocks as zero-copy slices
	VerifyChecksums bool   // verify every block read, not only the first read of each mapped block
	FileNum         uint64 // cache key namespace: must be unique among tables sharing a Cache
	Name            string // for error messages (default: the file name)
	// Statistics counts cache and filter work (statistics.go); nil: none.
	Statistics *statistics.Statistics
	// Direct says the file was opened with O_DIRECT (package
	// internal/directio): every read is then made aligned (direct.go).
	// It cannot be combined with Mmap.
	Direct bool
	// GetReadCharge, when set, is told the byte count of each read Get
	// makes of the file, before it makes it: a rate limiter's gate (user
	// reads under --rate_limit_user_ops). Mapped tables are not read, so
	// not charged.
	GetReadCharge func(n int)
	// FileOperations, when set, counts the reads made of the file
	// (--report_file_operations); reads of a mapping are not counted.
	FileOperations *fileops.Counters
	// CacheIndexAndFilterBlocks, with a Cache, loads the index and filter
	// partitions of a partitioned table through the cache instead of
	// keeping them in the Reader (RocksDB's cache_index_and_filter_blocks;
	// partitioncache.go). Tables of versions 1 and 2 keep their index
	// and filter in the Reader either way.
	CacheIndexAndFilterBlocks bool
}

// dataBlock is one index entry: the key block at Offset, KeyLen bytes, then
// its trailer, then the value block of ValueLen bytes and its trailer.
type dataBlock struct {
	offset   uint64
	keyLen   uint32
	valueLen uint32
}

func (d *dataBlock) valueOffset() uint64 {
	return d.offset + uint64(d.keyLen) + blockTrailerLen
}

// Reader reads one table. All methods are safe for concurrent use; an Iter
// is used by one goroutine at a time.
type Reader struct {
	f *os.File
	// ra is what blocks are read through: fr, or f's aligned reader when
	// the file is open for direct reads (fr nil).
	ra     io.ReaderAt
	fr     *fileReaderAt
	size   int64
	name   string
	opts   ReaderOptions
	cache  *Cache
	mapped []byte
	// region registers mapped for fault reports (mmap_fault.go).
	region *mmapfault.Region
	props  Properties
	// checksum checks every block (the footer's type).
	checksum ChecksumType
	filter   bloom.Filter
	// hasFilter is false for tables written without one.
	hasFilter bool
	// partEnd[p] is one past the last data block of index partition p
	// (nil for an unpartitioned index), and filterParts[p] its filter
	// partition (nil for a whole filter); partitioned.go.
	partEnd     []int
	filterParts []bloom.Filter
	// lazy, when set, holds the top levels of a partitioned table whose
	// partitions go through the cache (partitioncache.go); the separators
	// above are then nil.
	lazy *lazyPartitions
	// The index: separator i is seps[sepEnds[i-1]:sepEnds[i]].
	seps    []byte
	sepEnds []uint32
	blocks  blockTable
	// sepCommon is the prefix shared by all separators, and sepPrefix[i]
	// the 8 bytes of separator i after it, big endian and zero padded.
	// findBlock binary searches the uint64s: for 1M entries in 4 KiB
	// blocks that is 15 probes into a 224 KiB array (L2-resident) instead
	// of 15 probes into scattered separator bytes, each a likely cache
	// miss; only equal prefixes fall back to comparing bytes.
	sepCommon []byte
	sepPrefix []uint64
	// sepLen and longSeps, when sepLen is not nil, replace seps and
	// sepEnds (shortseps.go).
	sepLen   []uint8
	longSeps longSeps
	// partPrefix[p] is sepPrefix of partition p's last separator, so
	// that seekPartition searches dense uint64s as findBlock does.
	partPrefix []uint64
	// maxStored is the longest stored data block plus its trailer. Every
	// pread buffer is made at least this large: Iter and Get rotate their
	// buffers between key and value blocks, and a buffer sized for a small
	// key block would otherwise be reallocated for the next value block.
	maxStored int
	// maxPair is the longest data block pair with both trailers.
	maxPair int
	// verified has one bit per key and value block (2i, 2i+1): set once a
	// mapped block's checksum has been checked, so a mapped table pays for
	// each checksum once rather than on every read.
	verified []atomic.Uint64
	// hints has one cache slot hint per key and value block (same indexes
	// as verified); see Cache.lookup. Nil without a cache.
	hints    []atomic.Int32
	getState sync.Pool // *getState
	// rangeDels are the table's range tombstones, decoded at Open (empty
	// without a range-deletion block).
	rangeDels *rangedel.List
}

// getState is the per-call scratch of Get, pooled so that Get allocates
// nothing in steady state.
type getState struct {
	it               blockIter
	keyBuf, valueBuf []byte
	tmp              []byte
	pair             pairBuf
}

// pairBuf holds the stored bytes of one whole data block pair, read with a
// single pread. Without a cache hit, a point lookup or a scan that reads
// values needs both blocks of a pair; one 4-8 KiB pread instead of two
// saves a system call (about 1 us) per pair, about 30 ns per entry of a
// scan at 35 entries per pair. Key-only scans read key blocks alone.
//
// An iterator's pairBuf also reads ahead (RocksDB's iterators do the same
// from their third sequential read): when a read asks for the pair right
// after the run held, it reads that pair and the following ones up to
// window bytes in one pread, the window doubling from minReadahead to
// maxReadahead on every such read; a read of the pair right before the run
// held reads that pair and the ones before it the same way (a reverse
// scan); any other read goes back to one pair.
// On a 1M-entry table set (16-byte keys, 100-byte values, 8 MiB block cache)
// a cold readseq made one pread per ~4.5 KiB pair, and system calls were 25%
// of its profile.
type pairBuf struct {
	buf         []byte
	first, last int // pairs held in buf, first > last for none
	set         bool
	ahead       bool // read ahead on sequential reads (iterators)
	window      int  // current read-ahead bytes, 0 before the first sequential read
	// fixed, when positive, is the read-ahead of every read, sequential
	// or not, and charge is told of every read's bytes (iter_io.go).
	fixed  int
	charge func(n int)
	// reads counts the reads of pairs from the file made through this
	// buffer (and an iterator's loads of blocks alone, Iter.fillFor);
	// declined says the latest pair read is not among the one in
	// admitSample whose blocks a full cache may admit (cache_admission.go).
	reads    uint32
	declined bool
	// want, when not empty, is the one span of the next value block a
	// Get needs: a snappy block decoded into the caller's buffer then
	// decodes only those bytes (snappyrange.go); set by deliver alone.
	want valueSpan
}

// valueSpan is bytes [lo, hi) of a value block; hi 0 is the whole block.
type valueSpan struct{ lo, hi uint32 }

const (
	minReadahead = 16 << 10
	maxReadahead = 256 << 10
)

// reset forgets the held pairs; the zero pairBuf must be reset before use.
func (p *pairBuf) reset() { p.first, p.last, p.set, p.window = 0, -1, true, 0 }

// Open reads the footer, index, filter and properties of a table of size
// bytes. It takes ownership of f (Close closes it), also on error.
//
// size is the length the caller recorded for the table (the MANIFEST's):
// a file of any other length is a corruption error, found before anything
// is read or mapped, so that a short file is never mapped (reading a page
// of a mapping past the end of its file raises SIGBUS).
//
// On an error the file is closed and the mapping released. So they are
// when the file shrinks between the size check and a read of the mapping,
// and Open returns the fault as an ErrCorruption error naming the file,
// provided the calling goroutine set runtime/debug.SetPanicOnFault
// (without it the fault kills the process).
func Open(f *os.File, size int64, opts ReaderOptions) (_ *Reader, err error) {
	r := &Reader{f: f, size: size, opts: opts, cache: opts.Cache, name: opts.Name, blocks: newBlockTable(size)}
	r.ra, r.fr = readerAt(f, opts)
	if opts.FileOperations != nil {
		r.ra = fileops.ReaderAt{ReaderAt: r.ra, Counts: opts.FileOperations}
	}
	if r.name == "" {
		r.name = f.Name()
	}
	if opts.Mmap {
		defer func() {
			if p := recover(); p != nil {
				if err = mmapfault.Error(p); err == nil {
					panic(p)
				}
				r.Close()
			}
		}()
	}
	if err := r.open(size, opts); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

func (r *Reader) open(size int64, opts ReaderOptions) error {
	f := r.f
	r.getState.New = func() any { return new(getState) }
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("sst: stat %s: %w", r.name, err)
	}
	if st.Size() != size {
		return fmt.Errorf("%w: Sst file size mismatch: %s. Size recorded in manifest %d, actual size %d", ErrCorruption, r.name, size, st.Size())
	}
	testHookSizeChecked(r.f)
	if err := footerFits(size, r.name); err != nil {
		return err
	}
	if opts.Mmap && size > 0 {
		m, err := mmapFile(f, size)
		if err != nil {
			return fmt.Errorf("sst: mmap %s: %w", r.name, err)
		}
		r.mapped = m
		r.region = mmapfault.Register(m, r.name, ErrCorruption)
	}
	fb, err := r.readMeta(uint64(size)-footerLen, footerLen)
	if err != nil {
		return err
	}
	ft, err := decodeFooter(fb, size, r.name)
	if err != nil {
		return err
	}
	r.checksum = ft.Checksum
	pb, err := r.readMetaBlock(ft.Props)
	if err != nil {
		return err
	}
	if r.props, err = decodeProperties(pb); err != nil {
		return corruptf(r.name, ft.Props.Offset, "properties block: %v", err)
	}
	r.props.FileSize = uint64(size)
	r.props.FormatVersion = ft.Version
	r.props.Checksum = ft.Checksum
	ib, err := r.readIndexBlock(ft.Index)
	if err != nil {
		return err
	}
	var partitions []handle
	if ft.Version == formatVersionPartitioned {
		partitions, err = r.decodePartitionedIndex(ib, ft.Index.Offset)
		r.props.IndexPartitions = len(r.partEnd)
	} else {
		_, err = r.appendIndexEntries(ib, ft.Index.Offset)
	}
	if err != nil {
		return err
	}
	r.finishIndex()
	if partitions != nil && opts.CacheIndexAndFilterBlocks && r.cache != nil {
		r.goLazy(partitions)
	}
	if ft.Filter != (handle{}) {
		fb, err := r.readMetaBlock(ft.Filter)
		if err != nil {
			return err
		}
		if ft.PartitionedFilter {
			err = r.decodePartitionedFilter(fb, ft.Filter.Offset)
		} else if f, ok := decodeBloom(fb); ok {
			r.filter = f
		} else {
			err = corruptf(r.name, ft.Filter.Offset, "malformed filter block")
		}
		if err != nil {
			return err
		}
		r.hasFilter = true
	}
	r.rangeDels = &rangedel.List{}
	if h := r.props.rangeDels; r.props.NumRangeDeletions > 0 {
		if limit := uint64(size) - footerLen; h.Len > maxBlockLen || h.Offset > limit || limit-h.Offset < uint64(h.Len)+blockTrailerLen {
			return corruptf(r.name, ft.Props.Offset, "range deletion block handle (%d, %d) outside the file of %d bytes", h.Offset, h.Len, size)
		}
		b, err := r.readMetaBlock(h)
		if err != nil {
			return err
		}
		if r.rangeDels, err = rangedel.Decode(b); err != nil {
			return corruptf(r.name, h.Offset, "range deletion block: %v", err)
		}
		if uint64(r.rangeDels.Count()) != r.props.NumRangeDeletions {
			return corruptf(r.name, h.Offset, "range deletion block holds %d tombstones, properties say %d", r.rangeDels.Count(), r.props.NumRangeDeletions)
		}
	}
	r.verified = make([]atomic.Uint64, (2*r.blocks.len()+63)/64)
	if r.cache != nil {
		r.hints = make([]atomic.Int32, 2*r.blocks.len())
	}
	return nil
}

// testHookSizeChecked runs after Open checked the file's size; tests
// change the file there.
var testHookSizeChecked = func(*os.File) {}

// readMeta returns n bytes at off: a slice of the mapping or a new buffer.
//
// Meta blocks are copied out of a mapping: the Reader keeps them (the index
// and filter are read by every seek and Get), and a copy cannot fault when
// the file shrinks later.
func (r *Reader) readMeta(off uint64, n int) ([]byte, error) {
	if r.mapped != nil {
		return bytes.Clone(r.mapped[off : off+uint64(n)]), nil
	}
	b := make([]byte, n)
	if _, err := r.ra.ReadAt(b, int64(off)); err != nil {
		return nil, fmt.Errorf("sst: read %s at offset %d: %w", r.name, off, err)
	}
	return b, nil
}

// readMetaBlock reads and checks an uncompressed meta block (index,
// filter, properties) and keeps it for the life of the Reader.
func (r *Reader) readMetaBlock(h handle) ([]byte, error) {
	stored, kind, err := r.readCheckedMeta(h)
	if err != nil {
		return nil, err
	}
	if kind != CompressionNone {
		return nil, corruptf(r.name, h.Offset, "meta block has compression type %d", kind)
	}
	return stored, nil
}

// readCheckedMeta reads a meta block and checks its checksum, returning
// its stored bytes and its compression type.
func (r *Reader) readCheckedMeta(h handle) ([]byte, Compression, error) {
	b, err := r.readMeta(h.Offset, int(h.Len)+blockTrailerLen)
	if err != nil {
		return nil, 0, err
	}
	if err := r.checkBlock(b, h); err != nil {
		return nil, 0, err
	}
	return b[:h.Len], Compression(b[h.Len]), nil
}

// checkBlock verifies the checksum of a block read with its trailer: the
// table's checksum type over the stored bytes and the compression byte.
func (r *Reader) checkBlock(b []byte, h handle) error {
	want := binary.LittleEndian.Uint32(b[h.Len+1:])
	if got := r.checksum.sum(b[:h.Len+1]); got != want {
		return corruptf(r.name, h.Offset, "block checksum mismatch: stored = %d, computed = %d, type = %d size %d",
			r.checksum.readable(want), r.checksum.readable(got), r.checksum.RocksDBNumber(), h.Len)
	}
	return nil
}

// appendIndexEntries decodes the index block b (at off): a whole index,
// or one partition of a partitioned one, whose blocks follow those decoded
// before. It returns the number of entries decoded.
func (r *Reader) appendIndexEntries(b []byte, off uint64) (int, error) {
	bad := func(what string) error { return corruptf(r.name, off, "index block: %s", what) }
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return 0, bad("bad block count")
	}
	b = b[k:]
	r.blocks.grow(int(n))
	r.sepEnds = slices.Grow(r.sepEnds, int(n))
	var end uint64 // end of the previous data block
	if r.blocks.len() > 0 {
		end = r.pairEnd(r.blocks.len() - 1)
	}
	first := r.blocks.len()
	for j := uint64(0); j < n; j++ {
		i := r.blocks.len()
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return 0, bad("bad separator length")
		}
		sep := b[k : k+int(l)]
		b = b[k+int(l):]
		var v [3]uint64
		for h := range v {
			if v[h], k = binary.Uvarint(b); k <= 0 {
				return 0, bad("truncated block handle")
			}
			b = b[k:]
		}
		d := dataBlock{offset: v[0], keyLen: uint32(v[1]), valueLen: uint32(v[2])}
		if v[0] != end || v[1] > maxBlockLen || v[2] > maxBlockLen {
			return 0, bad(fmt.Sprintf("block %d handle (%d, %d, %d) not contiguous", i, v[0], v[1], v[2]))
		}
		end = d.valueOffset() + uint64(d.valueLen) + blockTrailerLen
		if end > uint64(r.size)-footerLen {
			return 0, bad(fmt.Sprintf("block %d extends past the end of the file", i))
		}
		if i > 0 && bytes.Compare(sep, r.separator(i-1)) < 0 {
			return 0, bad("separators out of order")
		}
		r.seps = append(r.seps, sep...)
		r.sepEnds = append(r.sepEnds, uint32(len(r.seps)))
		r.blocks.add(d)
		r.maxStored = max(r.maxStored, int(d.keyLen)+blockTrailerLen, int(d.valueLen)+blockTrailerLen)
		r.maxPair = max(r.maxPair, int(d.keyLen)+int(d.valueLen)+2*blockTrailerLen)
	}
	if len(b) != 0 {
		return 0, bad("trailing bytes")
	}
	return r.blocks.len() - first, nil
}

// finishIndex computes the separators' common prefix and 8-byte prefixes
// once every index entry is decoded.
func (r *Reader) finishIndex() {
	r.blocks.trim()
	if r.blocks.len() > 0 {
		first, last := r.separator(0), r.separator(r.blocks.len()-1)
		n := 0
		for n < len(first) && n < len(last) && first[n] == last[n] {
			n++
		}
		r.sepCommon = first[:n]
		r.sepPrefix = make([]uint64, r.blocks.len())
		for i := range r.blocks.len() {
			r.sepPrefix[i] = base.KeyPrefix(r.separator(i)[n:])
		}
	}
	r.partPrefix = make([]uint64, len(r.partEnd))
	for p, end := range r.partEnd {
		r.partPrefix[p] = r.sepPrefix[end-1]
	}
	r.shortenSeparators()
	// Separators kept whole were appended as they were decoded and are
	// kept for the table's life: drop the slack of the buffer's doubling.
	if cap(r.seps)-len(r.seps) > len(r.seps)/8 {
		r.seps = slices.Clone(r.seps)
	}
}

// keyRest compares key with the prefix all separators share: verdict is
// -1 when key is below every separator, 1 when above every one, else 0
// with rest the bytes of key after the shared prefix.
func (r *Reader) keyRest(key []byte) (rest []byte, verdict int) {
	if cp := len(r.sepCommon); cp > 0 {
		if len(key) < cp {
			// key is below every separator unless it differs earlier.
			if bytes.Compare(key, r.sepCommon[:len(key)]) > 0 {
				return nil, 1
			}
			return nil, -1
		}
		if c := bytes.Compare(key[:cp], r.sepCommon); c != 0 {
			return nil, c
		}
	}
	return key[len(r.sepCommon):], 0
}

// separator returns separator i: a slice of seps, or a new slice for a
// table with short separators (shortseps.go), which no lookup calls.
func (r *Reader) separator(i int) []byte {
	if r.sepLen != nil {
		return r.shortSeparator(i)
	}
	start := uint32(0)
	if i > 0 {
		start = r.sepEnds[i-1]
	}
	return r.seps[start:r.sepEnds[i]]
}

// findBlock returns the first block whose separator is >= key: the only
// block that can hold key's newest version (r.blocks.len() if none).
func (r *Reader) findBlock(key []byte) int {
	return r.searchPrefixes(r.sepPrefix, key, false)
}

// searchPrefixes returns the first m whose separator is >= key (or
// len(prefixes)), binary searching prefixes (8-byte prefixes of the
// separators after the prefix they all share) and comparing separator
// bytes only on equal prefixes: the blocks' separators, or with top the
// partitions' last separators.
func (r *Reader) searchPrefixes(prefixes []uint64, key []byte, top bool) int {
	lo, hi := 0, len(prefixes)
	rest, verdict := r.keyRest(key)
	if verdict < 0 {
		return 0
	}
	if verdict > 0 {
		return hi
	}
	kp := base.KeyPrefix(rest)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		sp := prefixes[m]
		if sp < kp || (sp == kp && r.searchedRestBelow(m, top, rest)) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// searchedRestBelow reports whether separator m of searchPrefixes, after
// sepCommon, is below rest.
func (r *Reader) searchedRestBelow(m int, top bool, rest []byte) bool {
	if top {
		return bytes.Compare(r.partitionLast(m)[len(r.sepCommon):], rest) < 0
	}
	return r.separatorRestBelow(m, rest)
}

// RangeDels returns the table's range tombstones (an empty List when it
// has none).
func (r *Reader) RangeDels() *rangedel.List { return r.rangeDels }

// Properties returns the table's properties; the caller must not modify them.
func (r *Reader) Properties() *Properties { return &r.props }

// MayContain reports whether the filter admits userKey (true without a
// filter, or with one that cannot answer for it: prefixfilter.go).
func (r *Reader) MayContain(userKey []byte) bool {
	if !r.hasFilter {
		return true
	}
	probe, ok := r.getFilterKey(userKey)
	if !ok {
		return true
	}
	if r.partitionedFilter() {
		p := r.seekPartition(userKey)
		if p == len(r.partEnd) {
			return false
		}
		may, err := r.partitionMayContain(p, probe)
		return may || err != nil
	}
	return r.filter.MayContain(hashKey(probe))
}

// loadBlock returns the uncompressed bytes of the block at off (n bytes
// stored). The bytes come from the cache (pinned by the returned handle,
// which the caller releases), from the mapping, or from *dst; *tmp is
// scratch for compressed bytes read with pread. bit is the block's index in
// r.verified.
//
// With pair non-nil, a block that must be read from the file is taken from
// the whole pair read into pair, which then serves the pair's other block
// too; the returned bytes may point into pair.buf and stay valid until the
// pair is replaced. Without pair, charge (when not nil) is told of the
// bytes of a block read from the file before the read (a pair's reads are
// charged to pair.charge). With fill fillNone a block missing from the cache
// is not added to it (RocksDB's ReadOptions.fill_cache, off for compactions);
// the other modes are pairvalue.go's.
//
// With own set, a raw block of a mapped table is copied into *dst instead
// of being returned in place, so that the caller's reads of the bytes can
// never fault (see mmap_fault.go). Reads of the mapping here are guarded:
// a fault is returned as an ErrCorruption error naming the table.
func (r *Reader) loadBlock(off uint64, n uint32, bit int, dst, tmp *[]byte, pair *pairBuf, charge func(int), fill fillMode, own bool) ([]byte, cacheHandle, error) {
	if r.mapped != nil {
		return r.loadMapped(off, n, bit, dst, fill, own)
	}
	if r.cache != nil {
		if h, b, ok := r.cache.lookup(r.opts.FileNum, off, &r.hints[bit]); ok {
			r.countCacheLookup(true, len(b))
			return b, h, nil
		}
		r.countCacheLookup(false, 0)
	}
	var raw []byte
	var err error
	if pair != nil {
		raw, err = r.readPair(pair, bit/2, off, n)
	} else {
		if charge != nil {
			charge(int(n) + blockTrailerLen)
		}
		raw, err = r.readBlock(tmp, off, n)
	}
	if err != nil {
		return nil, cacheHandle{}, err
	}
	if err := r.checkBlock(raw, handle{off, n}); err != nil {
		return nil, cacheHandle{}, err
	}
	return r.decodeBlock(raw, off, n, bit, dst, tmp, pair, fill, false)
}

// loadMapped is loadBlock for a mapped table, with SetPanicOnFault on
// while it reads the mapping (restored after): one guard per block loaded.
func (r *Reader) loadMapped(off uint64, n uint32, bit int, dst *[]byte, fill fillMode, own bool) (b []byte, h cacheHandle, err error) {
	// A fault leaves b and h zero: they are set only by the returns.
	defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
	raw := r.mapped[off : off+uint64(n)+blockTrailerLen]
	// A raw mapped block is used in place: no cache lookup, no copy.
	if Compression(raw[n]) != CompressionNone && r.cache != nil {
		if h, b, ok := r.cache.lookup(r.opts.FileNum, off, &r.hints[bit]); ok {
			r.countCacheLookup(true, len(b))
			return b, h, nil
		}
		r.countCacheLookup(false, 0)
	}
	word, mask := bit/64, uint64(1)<<(bit%64)
	if r.opts.VerifyChecksums || r.verified[word].Load()&mask == 0 {
		if err := r.checkBlock(raw, handle{off, n}); err != nil {
			return nil, cacheHandle{}, err
		}
		r.verified[word].Or(mask)
	}
	return r.decodeBlock(raw, off, n, bit, dst, nil, nil, fill, own)
}

// decodeBlock returns the uncompressed bytes of raw, the checked stored
// block at off with its trailer (loadBlock's second half). A snappy block
// decoded into *dst for a Get that wants one span of it (pair.want) has
// only that span decoded.
func (r *Reader) decodeBlock(raw []byte, off uint64, n uint32, bit int, dst, tmp *[]byte, pair *pairBuf, fill fillMode, own bool) ([]byte, cacheHandle, error) {
	kind := Compression(raw[n])
	stored := raw[:n]
	if kind == CompressionNone && r.mapped != nil {
		if own {
			out := grow(dst, int(n))
			copy(out, stored)
			return out, cacheHandle{}, nil
		}
		return stored, cacheHandle{}, nil // zero copy
	}
	size, err := decodedLen(stored, kind)
	if err != nil {
		return nil, cacheHandle{}, corruptf(r.name, off, "%v", err)
	}
	if r.cache != nil && fill != fillNone {
		var h cacheHandle
		var b []byte
		var ok bool
		// A block read ahead by a scan goes only into free space, never
		// in place of a cached block, whatever the fill mode; so does one
		// of a pair read, or a block loaded alone, outside the admission
		// sample (cache_admission.go).
		scanning := pair != nil && pair.window > 0
		if fill == fillReserve && !scanning {
			h, b, ok = r.cache.reserve(r.opts.FileNum, off, size)
		} else {
			decline := scanning || fill == fillSpare || pair != nil && pair.declined
			h, b, ok = r.cache.admit(r.opts.FileNum, off, size, decline)
		}
		if ok {
			if err := r.decompressReserved(h, b, stored, kind); err != nil {
				return nil, cacheHandle{}, corruptf(r.name, off, "decompress: %v", err)
			}
			r.cache.publish(h, &r.hints[bit])
			r.countCacheAdd(size)
			return b, h, nil
		}
	}
	if kind == CompressionNone {
		if pair == nil {
			// Hand the pread buffer over to *dst, so that *tmp is free for
			// the next read while this block stays in use.
			*dst, *tmp = *tmp, *dst
		}
		return stored, cacheHandle{}, nil
	}
	out := grow(dst, size)
	if pair != nil && pair.want.hi != 0 && kind == CompressionSnappy && int(pair.want.hi) <= size {
		// Only the span a Get wants: out's other bytes are left as they
		// were, and the caller reads none of them.
		sr := snappyRanges.Get().(*snappyRange)
		ok, err := sr.decode(out[pair.want.lo:pair.want.hi], stored, int(pair.want.lo), int(pair.want.hi))
		snappyRanges.Put(sr)
		if err != nil {
			return nil, cacheHandle{}, corruptf(r.name, off, "decompress: %v", err)
		}
		if ok {
			return out, cacheHandle{}, nil
		}
	}
	if err := decompress(out, stored, kind); err != nil {
		return nil, cacheHandle{}, corruptf(r.name, off, "decompress: %v", err)
	}
	return out, cacheHandle{}, nil
}

// decompressReserved fills the reserved cache slot h (bytes b) from stored,
// abandoning the slot on an error or on a fault reading a mapping (which
// then goes on up to the caller's recover; see mmap_fault.go), so that a
// reserved slot is never left unpublished.
func (r *Reader) decompressReserved(h cacheHandle, b, stored []byte, kind Compression) (err error) {
	if r.mapped != nil {
		defer func() {
			if p := recover(); p != nil {
				r.cache.abandon(h)
				panic(p)
			}
		}()
	}
	if err := decompress(b, stored, kind); err != nil {
		r.cache.abandon(h)
		return err
	}
	return nil
}

// readBlock preads block (off, n) with its trailer into *tmp.
func (r *Reader) readBlock(tmp *[]byte, off uint64, n uint32) ([]byte, error) {
	if cap(*tmp) < r.maxStored {
		*tmp = make([]byte, r.maxStored)
	}
	buf := grow(tmp, int(n)+blockTrailerLen)
	return buf, r.readAt(buf, off)
}

// readPair returns block (off, n) of pair i with its trailer, reading the
// whole pair (and, reading ahead, the pairs after it, or before it on a
// backward run) into p unless p already holds it.
func (r *Reader) readPair(p *pairBuf, i int, off uint64, n uint32) ([]byte, error) {
	if !p.set || i < p.first || i > p.last {
		first, last := r.pairSpan(p, i)
		size := int(r.pairEnd(last) - r.blocks.at(first).offset)
		if p.charge != nil {
			p.charge(size)
		}
		if cap(p.buf) < max(size, r.maxPair) {
			p.buf = make([]byte, p.capFor(size, r.maxPair))
		}
		buf := grow(&p.buf, size)
		// Until the read succeeds p holds nothing: a failed read must not
		// leave the previous run's bytes looking like the new pairs.
		p.first, p.last = 0, -1
		p.declined = p.reads&admitSampleMask != 0
		p.reads++
		if err := r.readAt(buf, r.blocks.at(first).offset); err != nil {
			return nil, err
		}
		p.first, p.last, p.set = first, last, true
	}
	start := off - r.blocks.at(p.first).offset
	return p.buf[start : start+uint64(n)+blockTrailerLen], nil
}

// pairSpan picks the pairs first..last (holding i) of p's next read and
// moves p's read-ahead window. A read of the pair right after the run held
// reads ahead forward; one of the pair right before it, as a reverse scan
// makes, reads the pairs before i that start within the window of i's end
// (RocksDB's reverse scans read one block per read; a reverse readseq
// over a cold 1M-entry table then spent a quarter of its CPU in pread).
// A fixed read-ahead reads forward from any other read.
func (r *Reader) pairSpan(p *pairBuf, i int) (first, last int) {
	forward := p.set && i == p.last+1
	backward := p.set && p.first <= p.last && i == p.first-1
	first, last = i, i
	if !p.ahead || !(forward || backward || p.fixed > 0) {
		p.window = 0
		return first, last
	}
	p.window = p.nextWindow()
	if backward {
		end := r.pairEnd(i)
		for first > 0 && end-r.blocks.at(first-1).offset <= uint64(p.window) {
			first--
		}
		return first, last
	}
	for last+1 < r.blocks.len() && r.pairEnd(last+1)-r.blocks.at(i).offset <= uint64(p.window) {
		last++
	}
	return first, last
}

// pairEnd is the file offset just past pair i's value block trailer.
func (r *Reader) pairEnd(i int) uint64 {
	return r.blocks.pairEnd(i)
}

func (r *Reader) readAt(buf []byte, off uint64) error {
	if _, err := r.ra.ReadAt(buf, int64(off)); err != nil {
		if errors.Is(err, io.EOF) {
			return corruptf(r.name, off, "block extends past the end of the file")
		}
		return fmt.Errorf("sst: read %s at offset %d: %w", r.name, off, err)
	}
	return nil
}

// grow returns (*b)[:n], reallocating only when the capacity is short.
func grow(b *[]byte, n int) []byte {
	if cap(*b) < n {
		*b = make([]byte, n, n+n/4)
	}
	*b = (*b)[:n]
	return *b
}

// Get finds the newest entry of userKey with seq <= snapshot and calls fn
// with it; value is valid only during fn. found is false if there is no such
// entry. A deletion is reported as found with kind base.KindDelete.
func (r *Reader) Get(userKey []byte, snapshot uint64, fn func(value []byte, kind base.Kind, seq uint64)) (found bool, err error) {
	if r.partitionedFilter() {
		return r.getPartitioned(userKey, snapshot, fn)
	}
	if r.hasFilter {
		if probe, ok := r.getFilterKey(userKey); ok && !r.countFilter(r.filter.MayContain(hashKey(probe))) {
			return false, nil
		}
	}
	found, err = r.lookup(userKey, snapshot, fn)
	r.countFilterFound(found)
	return found, err
}

// getPartitioned is Get on a table with partitioned filters: the top
// level places the key in a partition, whose filter partition is probed
// before its index partition is searched.
func (r *Reader) getPartitioned(userKey []byte, snapshot uint64, fn func(value []byte, kind base.Kind, seq uint64)) (bool, error) {
	p := r.seekPartition(userKey)
	if p == len(r.partEnd) {
		return false, nil
	}
	if probe, ok := r.getFilterKey(userKey); ok {
		may, err := r.partitionMayContain(p, probe)
		if err != nil {
			return false, err
		}
		if !r.countFilter(may) {
			return false, nil
		}
	}
	i, err := r.blockInPartition(p, userKey)
	if err != nil {
		return false, err
	}
	found, err := r.lookupBlock(i, userKey, snapshot, fn)
	r.countFilterFound(found)
	return found, err
}

// lookup is Get after the filter: it searches the blocks.
func (r *Reader) lookup(userKey []byte, snapshot uint64, fn func(value []byte, kind base.Kind, seq uint64)) (bool, error) {
	i, err := r.seekBlock(userKey)
	if err != nil {
		return false, err
	}
	return r.lookupBlock(i, userKey, snapshot, fn)
}

// lookupBlock is lookup from block i, the first whose separator is >=
// userKey.
func (r *Reader) lookupBlock(i int, userKey []byte, snapshot uint64, fn func(value []byte, kind base.Kind, seq uint64)) (bool, error) {
	if i == r.blocks.len() {
		return false, nil
	}
	st := r.getState.Get().(*getState)
	st.pair.reset()
	st.pair.charge = r.opts.GetReadCharge
	found, err := r.get(st, i, userKey, snapshot, fn)
	r.getState.Put(st)
	return found, err
}

func (r *Reader) get(st *getState, i int, userKey []byte, snapshot uint64, fn func([]byte, base.Kind, uint64)) (bool, error) {
	// The versions of userKey may continue into the next blocks when the
	// newer ones are above the snapshot.
	for ; i < r.blocks.len(); i++ {
		d := r.blocks.at(i)
		kb, kh, err := r.loadBlock(d.offset, d.keyLen, 2*i, &st.keyBuf, &st.tmp, &st.pair, nil, fillAdmit, false)
		if err != nil {
			return false, err
		}
		// A Get's pair buffer reads no pair ahead, so it holds pair i only
		// when this load read it.
		pairRead := st.pair.holds(i)
		it := &st.it
		if err := it.init(kb); err != nil {
			kh.release()
			return false, corruptf(r.name, d.offset, "%v", err)
		}
		for ok := it.seekGE(userKey); ok; ok = it.next() {
			if !bytes.Equal(it.key, userKey) {
				kh.release()
				return false, nil
			}
			if seq := it.trailer.Seq(); seq <= snapshot {
				err := r.deliver(st, i, it, pairRead, kh, fn)
				kh.release()
				return err == nil, err
			}
		}
		kh.release()
		if it.err != nil {
			return false, corruptf(r.name, d.offset, "%v", it.err)
		}
	}
	return false, nil
}

// deliver loads the value of the current entry of it and calls fn.
// pairRead says that pair i was just read from the file for its key block,
// whose cache handle is kh (loadPairedValue).
func (r *Reader) deliver(st *getState, i int, it *blockIter, pairRead bool, kh cacheHandle, fn func([]byte, base.Kind, uint64)) error {
	kind := it.trailer.Kind()
	seq := it.trailer.Seq()
	if it.valLen == 0 {
		fn(nil, kind, seq)
		return nil
	}
	d := r.blocks.at(i)
	var vb []byte
	var vh cacheHandle
	var err error
	st.pair.want = valueSpan{it.valOff, it.valOff + it.valLen}
	if pairRead {
		vb, vh, err = r.loadPairedValue(i, &st.valueBuf, &st.tmp, &st.pair, kh.s != nil)
	} else {
		vb, vh, err = r.loadBlock(d.valueOffset(), d.valueLen, 2*i+1, &st.valueBuf, &st.tmp, &st.pair, nil, fillAdmit, false)
	}
	st.pair.want = valueSpan{}
	if err != nil {
		return err
	}
	if uint64(it.valOff)+uint64(it.valLen) > uint64(len(vb)) {
		vh.release()
		return corruptf(r.name, d.valueOffset(), "value at %d+%d outside the %d-byte value block", it.valOff, it.valLen, len(vb))
	}
	fn(vb[it.valOff:it.valOff+it.valLen], kind, seq)
	vh.release()
	return nil
}

// Close releases the mapping and closes the file. Iterators must be closed
// first: with Mmap their bytes point into the mapping.
func (r *Reader) Close() error {
	var err error
	if r.mapped != nil {
		r.region.Unregister()
		r.region = nil
		err = munmapFile(r.mapped)
		r.mapped = nil
	}
	if r.fr != nil {
		r.fr.close()
	}
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}
