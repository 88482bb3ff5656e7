package rtable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/bloom"
	"github.com/godbbench/godbbench/internal/mmapfault"
	"github.com/godbbench/godbbench/internal/rangedel"
)

// ReaderOptions configure Open.
type ReaderOptions struct {
	Name string // for error messages (default: the file name)
}

// Reader reads one table through a read-only mapping of the file. All
// methods are safe for concurrent use; an Iter is used by one goroutine at
// a time.
type Reader struct {
	f      *os.File
	data   []byte // the whole file
	mapped bool   // data is a mapping to release on Close
	// region registers the mapping with internal/mmapfault, so that a
	// guarded read that faults on a page the file lost after Open (the
	// file shrank) is an ErrCorruption error naming the table.
	region *mmapfault.Region
	name   string
	m      meta
	props  Properties
	// Packed keys: the keys section and the mask of its width; the index.
	keys    []byte
	keyMask uint64
	spline  spline
	// Variable keys: the offset array, the key bytes, the samples.
	keyOffs, keyBytes, samples []byte
	// Trailers: the column (nil when every trailer is m.baseTrailer).
	trailers    []byte
	trailerMask uint64
	// kindBits and kindMask: the low bits of a trailers column entry that
	// hold its kind (format version 1: one bit, 2: two).
	kindBits, kindMask uint64
	// Values: the value area; for values of varying length the group
	// starts and the in-group end offsets.
	values      []byte
	dict        []byte // ValueDict: the dictionary
	valueLen    uint64 // fixed length, when m.valueLen > 0
	groupStarts []byte
	valueEnds   []byte
	offsetMask  uint64
	checksums   []byte
	// verified has one bit per value group, set once the group's checksum
	// has been checked.
	verified  []atomic.Uint64
	filter    bloom.Filter
	hasFilter bool
	// wholeKeyFilter says the filter holds whole keys (Get probes them);
	// prefixOnlyFilter that it holds prefixes only (Get probes the
	// key's prefix; prefixfilter.go).
	wholeKeyFilter, prefixOnlyFilter bool
	// rangeDels are the table's range tombstones, decoded from a copy of
	// the range deletion section (empty when it has none).
	rangeDels *rangedel.List
	// valueBufs holds *[]byte buffers for Get to decompress values into.
	valueBufs sync.Pool
}

// Open maps a table of size bytes and checks every section but the value
// area against its checksum; value groups are checked on first use. It
// takes ownership of f (Close closes it), also on error.
//
// size is the length the caller recorded for the table: a file of any
// other length is a corruption error, found before it is mapped.
func Open(f *os.File, size int64, opts ReaderOptions) (*Reader, error) {
	r := &Reader{f: f, name: opts.Name}
	if r.name == "" {
		r.name = f.Name()
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("rtable: stat %s: %w", r.name, err)
	}
	if st.Size() != size {
		f.Close()
		return nil, fmt.Errorf("%w: Sst file size mismatch: %s. Size recorded in manifest %d, actual size %d", ErrCorruption, r.name, size, st.Size())
	}
	if size < footerLen {
		f.Close()
		return nil, corruptf(r.name, 0, "file is %d bytes, shorter than the %d-byte footer", size, footerLen)
	}
	if r.data, r.mapped, err = mapFile(f, size); err != nil {
		f.Close()
		return nil, fmt.Errorf("rtable: map %s: %w", r.name, err)
	}
	if r.mapped {
		r.region = mmapfault.Register(r.data, r.name, ErrCorruption)
	}
	if err := r.init(true); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// init decodes r.data; with verify false it skips the checksums (fuzzing
// the structure checks behind them).
func (r *Reader) init(verify bool) error {
	r.valueBufs.New = func() any { return new([]byte) }
	ft, err := decodeFooter(r.data, r.name)
	if err != nil {
		return err
	}
	mb := r.data[ft.metaOffset : ft.metaOffset+uint64(ft.metaLen)]
	if got := checksum(mb); verify && got != ft.metaCRC {
		return corruptf(r.name, ft.metaOffset, "meta section checksum mismatch: computed %#x, stored %#x", got, ft.metaCRC)
	}
	if r.m, err = decodeMeta(mb, ft.metaOffset, ft.version); err != nil {
		return corruptf(r.name, ft.metaOffset, "meta section: %v", err)
	}
	m := &r.m
	var sec [numSections][]byte
	for i, s := range m.sections {
		sec[i] = r.data[s.offset : s.offset+s.length]
		if got := checksum(sec[i]); verify && got != s.crc {
			return corruptf(r.name, s.offset, "%s section checksum mismatch: computed %#x, stored %#x", sectionNames[i], got, s.crc)
		}
	}
	bad := func(i int, format string, args ...any) error {
		return corruptf(r.name, m.sections[i].offset, "%s section: %s", sectionNames[i], fmt.Sprintf(format, args...))
	}
	n := m.entries
	if m.keyMode == keysPacked {
		r.keys, r.keyMask = sec[secKeys], widthMask(m.keyWidth)
		if r.spline, err = decodeSpline(sec[secIndex], n); err != nil {
			return bad(secIndex, "%v", err)
		}
	} else {
		if err := r.initVarKeys(sec[secKeys]); err != nil {
			return bad(secKeys, "%v", err)
		}
		r.samples = sec[secIndex]
	}
	if m.trailerWidth > 0 {
		r.trailers, r.trailerMask = sec[secTrailers], widthMask(m.trailerWidth)
		r.kindBits = kindBits(ft.version)
		r.kindMask = 1<<r.kindBits - 1
		if m.baseTrailer&0xff != 0 {
			return bad(secTrailers, "base trailer %#x has a kind", m.baseTrailer)
		}
		for i := range n {
			v := packedAt(r.trailers, i, m.trailerWidth, r.trailerMask)
			if v>>r.kindBits > base.MaxSeq-m.baseTrailer>>8 {
				return bad(secTrailers, "entry %d has sequence number %d + %d", i, m.baseTrailer>>8, v>>r.kindBits)
			}
			if !base.Kind(v & r.kindMask).Valid() {
				return bad(secTrailers, "entry %d has unknown kind %d", i, v&r.kindMask)
			}
		}
	} else if !base.Trailer(m.baseTrailer).Kind().Valid() {
		return corruptf(r.name, ft.metaOffset, "meta section: base trailer %#x has unknown kind", m.baseTrailer)
	}
	r.dict = r.data[:m.dictBytes]
	if got := checksum(r.dict); verify && m.valueCodec == uint64(ValueDict) && got != m.dictCRC {
		return corruptf(r.name, 0, "dictionary checksum mismatch: computed %#x, stored %#x", got, m.dictCRC)
	}
	r.values = r.data[m.dictBytes : m.dictBytes+m.valueAreaBytes]
	if m.valueLen > 0 {
		r.valueLen = m.valueLen - 1
	} else {
		groups := (n + groupLen - 1) / groupLen
		r.groupStarts, r.valueEnds = sec[secOffsets][:8*groups], sec[secOffsets][8*groups:]
		r.offsetMask = widthMask(m.offsetWidth)
	}
	r.checksums = sec[secChecksums]
	r.verified = make([]atomic.Uint64, (len(r.checksums)/4+63)/64)
	if m.filterProbes > 0 {
		r.filter, r.hasFilter = bloom.New(sec[secFilter], int(m.filterProbes), bloom.Fields9)
	}
	r.wholeKeyFilter, r.prefixOnlyFilter = r.hasFilter && m.wholeKeys, r.hasFilter && !m.wholeKeys
	if r.rangeDels, err = decodeRangeDels(sec[secRangeDels], m.rangeDels); err != nil {
		return bad(secRangeDels, "%v", err)
	}
	r.props = Properties{
		NumEntries: n, NumDeletions: m.deletions, RawKeySize: m.rawKeyBytes, RawValueSize: m.rawValueBytes,
		SmallestSeq: m.smallestSeq, LargestSeq: m.largestSeq,
		KeyBytes: m.sections[secKeys].length, IndexBytes: m.sections[secIndex].length,
		TrailerBytes: m.sections[secTrailers].length, FilterBytes: m.sections[secFilter].length,
		ValueBytes: m.dictBytes + m.valueAreaBytes + m.sections[secOffsets].length + m.sections[secChecksums].length,
		ValueCodec: ValueCodec(m.valueCodec), DictBytes: m.dictBytes,
		FileSize: uint64(len(r.data)), PackedKeys: m.keyMode == keysPacked,
		KeyWidth: int(m.keyWidth), TrailerWidth: int(m.trailerWidth),
		FilterPrefixLen: int(m.filterPrefixLen), PrefixOnlyFilter: !m.wholeKeys,
	}
	if n > 0 {
		r.props.SmallestKey = r.appendKey(nil, 0)
		r.props.LargestKey = r.appendKey(nil, n-1)
	}
	coverRangeDels(&r.props, r.rangeDels)
	return nil
}

// initVarKeys checks the offset array of a variable-key keys section.
func (r *Reader) initVarKeys(b []byte) error {
	n := r.m.entries
	if uint64(len(b))/4 < n+1 {
		return fmt.Errorf("%d bytes cannot hold %d key offsets", len(b), n+1)
	}
	r.keyOffs, r.keyBytes = b[:4*(n+1)], b[4*(n+1):]
	prev := uint32(0)
	for i := range n + 1 {
		o := binary.LittleEndian.Uint32(r.keyOffs[4*i:])
		if o < prev || uint64(o) > uint64(len(r.keyBytes)) || i == 0 && o != 0 {
			return fmt.Errorf("key offset %d is %d", i, o)
		}
		prev = o
	}
	if uint64(prev) != uint64(len(r.keyBytes)) {
		return fmt.Errorf("keys end at %d of %d bytes", prev, len(r.keyBytes))
	}
	return nil
}

// Properties returns the table's properties; the caller must not modify them.
func (r *Reader) Properties() *Properties { return &r.props }

// appendKey appends user key i.
func (r *Reader) appendKey(dst []byte, i uint64) []byte {
	dst = append(dst, r.m.prefix...)
	if r.m.keyMode == keysVariable {
		return append(dst, r.varKey(i)...)
	}
	// The varying part's w bytes, big endian: the top w bytes of one
	// 8-byte append.
	w := int(r.m.keyWidth)
	dst = binary.BigEndian.AppendUint64(dst, r.packedKey(i)<<(64-8*uint(w)))
	return append(dst[:len(dst)-8+w], r.m.suffix...)
}

// trailer returns entry i's trailer.
func (r *Reader) trailer(i uint64) base.Trailer {
	if r.trailers == nil {
		return base.Trailer(r.m.baseTrailer)
	}
	v := packedAt(r.trailers, i, r.m.trailerWidth, r.trailerMask)
	return base.Trailer(r.m.baseTrailer + v>>r.kindBits<<8 | v&r.kindMask)
}

// valueRange returns the bounds of value i in the value area.
func (r *Reader) valueRange(i uint64) (start, end uint64, err error) {
	if r.groupStarts == nil {
		return i * r.valueLen, (i + 1) * r.valueLen, nil
	}
	g := binary.LittleEndian.Uint64(r.groupStarts[8*(i>>groupShift):])
	end = g + packedAt(r.valueEnds, i, r.m.offsetWidth, r.offsetMask)
	start = g
	if i&(groupLen-1) != 0 {
		start += packedAt(r.valueEnds, i-1, r.m.offsetWidth, r.offsetMask)
	}
	if start > end || end > uint64(len(r.values)) || end < g {
		return 0, 0, corruptf(r.name, r.m.sections[secOffsets].offset, "value %d at [%d, %d) outside the %d-byte value area", i, start, end, len(r.values))
	}
	return start, end, nil
}

// value returns value i, checking its group's checksum on first use.
func (r *Reader) value(i uint64) ([]byte, error) {
	start, end, err := r.valueRange(i)
	if err != nil {
		return nil, err
	}
	g := i >> groupShift
	if r.verified[g>>6].Load()&(1<<(g&63)) == 0 {
		if err := r.verifyGroup(g); err != nil {
			return nil, err
		}
	}
	return r.values[start:end:end], nil
}

// verifyGroup checks value group g against its checksum and marks it.
func (r *Reader) verifyGroup(g uint64) error {
	first := g << groupShift
	last := min(r.m.entries, first+groupLen) - 1
	start, _, err := r.valueRange(first)
	if err != nil {
		return err
	}
	_, end, err := r.valueRange(last)
	if err != nil {
		return err
	}
	if start > end {
		return corruptf(r.name, start, "value group %d ends at %d before it starts", g, end)
	}
	want := binary.LittleEndian.Uint32(r.checksums[4*g:])
	if got := checksum(r.values[start:end]); got != want {
		return corruptf(r.name, r.m.dictBytes+start, "value group %d checksum mismatch: computed %#x, stored %#x", g, got, want)
	}
	r.verified[g>>6].Or(1 << (g & 63))
	return nil
}

// MayContain reports whether the filter admits userKey (true without a
// filter).
func (r *Reader) MayContain(userKey []byte) bool {
	if r.prefixOnlyFilter {
		return r.prefixMayMatch(userKey)
	}
	if !r.wholeKeyFilter {
		return true
	}
	rest, c := r.splitPrefix(userKey)
	if c != 0 {
		return false
	}
	if r.m.keyMode == keysVariable {
		return r.filter.MayContain(hashBytes(rest))
	}
	if uint64(len(userKey)) != r.m.keyLen || !bytes.Equal(rest[r.m.keyWidth:], r.m.suffix) {
		return false
	}
	return r.filter.MayContain(hashPacked(varyingPart(rest[:r.m.keyWidth])))
}

// Get finds the newest entry of userKey with seq <= snapshot and calls fn
// with it; value points into the mapping (or, for a value a compressed
// table must decode, a pooled buffer) and is valid only during fn.
// found is false if there is no such entry. A deletion is reported as found
// with kind base.KindDelete. Get allocates nothing.
func (r *Reader) Get(userKey []byte, snapshot uint64, fn func(value []byte, kind base.Kind, seq uint64)) (found bool, err error) {
	n := r.m.entries
	if n == 0 {
		return false, nil
	}
	if r.prefixOnlyFilter && !r.prefixMayMatch(userKey) {
		return false, nil
	}
	rest, c := r.splitPrefix(userKey)
	if c != 0 {
		return false, nil
	}
	var i uint64
	if r.m.keyMode == keysPacked {
		w := r.m.keyWidth
		if uint64(len(userKey)) != r.m.keyLen || !bytes.Equal(rest[w:], r.m.suffix) {
			return false, nil
		}
		v := varyingPart(rest[:w])
		if r.wholeKeyFilter && !r.filter.MayContain(hashPacked(v)) {
			return false, nil
		}
		for i = r.packedLowerBound(v); i < n && r.packedKey(i) == v; i++ {
			if t := r.trailer(i); t.Seq() <= snapshot {
				return r.deliver(i, t, fn)
			}
		}
		return false, nil
	}
	if r.wholeKeyFilter && !r.filter.MayContain(hashBytes(rest)) {
		return false, nil
	}
	for i = r.varLowerBound(rest); i < n && bytes.Equal(r.varKey(i), rest); i++ {
		if t := r.trailer(i); t.Seq() <= snapshot {
			return r.deliver(i, t, fn)
		}
	}
	return false, nil
}

func (r *Reader) deliver(i uint64, t base.Trailer, fn func([]byte, base.Kind, uint64)) (bool, error) {
	v, err := r.value(i)
	if err != nil {
		return false, err
	}
	if r.m.valueCodec == uint64(ValueRaw) {
		fn(v, t.Kind(), t.Seq())
		return true, nil
	}
	if r.m.valueCodec == uint64(ValueDict) {
		if dv, ok := dictSingleCopy(v, r.dict); ok {
			fn(dv, t.Kind(), t.Seq())
			return true, nil
		}
	}
	buf := r.valueBufs.Get().(*[]byte)
	v, err = r.decodeValue(v, i, buf)
	if err == nil {
		fn(v, t.Kind(), t.Seq())
	}
	r.valueBufs.Put(buf)
	return err == nil, err
}

// Close releases the mapping and closes the file. Iterators must be closed
// first: their bytes point into the mapping.
func (r *Reader) Close() error {
	var err error
	if r.mapped {
		r.region.Unregister()
		r.region = nil
		err = unmapFile(r.data)
		r.mapped = false
	}
	r.data = nil
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}
