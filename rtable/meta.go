package rtable

import (
	"encoding/binary"
	"fmt"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/bloom"
)

// Key modes (the meta section's key mode field).
const (
	// keysPacked: every user key is prefix + W varying bytes + suffix, and
	// the keys section holds the varying bytes as W-byte integers.
	keysPacked = 1
	// keysVariable: the keys section holds the user keys after the common
	// prefix, with an offset array.
	keysVariable = 2
)

// Sections, in file order after the value area.
const (
	secKeys = iota
	secIndex
	secTrailers
	secOffsets
	secChecksums
	secFilter
	// secRangeDels exists from format version 3 on; a table of an
	// older version has it empty.
	secRangeDels
	numSections
)

// numSectionsBefore3 is the number of sections a meta section of format
// version 1 or 2 lists.
const numSectionsBefore3 = secRangeDels

var sectionNames = [numSections]string{"keys", "key index", "trailers", "value offsets", "value checksums", "filter", "range deletion"}

// section locates one part of the table and carries its CRC32C.
type section struct {
	offset, length uint64
	crc            uint32
}

// meta is the decoded meta section: everything a reader needs to interpret
// the other sections. Field order is the stored order (package doc).
type meta struct {
	entries, deletions      uint64
	rawKeyBytes             uint64
	valueAreaBytes          uint64 // the value area's length: values as stored
	smallestSeq, largestSeq uint64
	keyMode                 uint64
	keyLen                  uint64 // packed keys: the length of every user key
	prefix, suffix          []byte // packed: common prefix and suffix; variable: prefix only
	keyWidth                uint64 // packed: W, 1..8
	trailerWidth            uint64 // 0..8; 0: every trailer is baseTrailer
	baseTrailer             uint64
	valueLen                uint64 // every value's length + 1, or 0 when lengths vary
	offsetWidth             uint64 // varying lengths: bytes per in-group end offset, 1..8
	filterProbes            uint64 // 0: no filter
	valueCodec              uint64 // ValueCodec
	rawValueBytes           uint64 // values before compression
	dictBytes               uint64 // ValueDict: the dictionary's length (it starts the file)
	dictCRC                 uint32 // ValueDict: the dictionary's CRC
	sections                [numSections]section
	// Format version 3 on: the filter's prefix length (0: whole keys
	// only), whether whole keys are in the filter too, and the number of
	// range tombstones (sequences over all fragments).
	filterPrefixLen uint64
	wholeKeys       bool
	rangeDels       uint64
}

// encode appends the meta section of a table of format version v.
func (m *meta) encode(dst []byte, v uint32) []byte {
	for _, v := range [...]uint64{m.entries, m.deletions, m.rawKeyBytes, m.valueAreaBytes,
		m.smallestSeq, m.largestSeq, m.keyMode, m.keyLen} {
		dst = binary.AppendUvarint(dst, v)
	}
	dst = binary.AppendUvarint(dst, uint64(len(m.prefix)))
	dst = append(dst, m.prefix...)
	dst = binary.AppendUvarint(dst, uint64(len(m.suffix)))
	dst = append(dst, m.suffix...)
	for _, v := range [...]uint64{m.keyWidth, m.trailerWidth, m.baseTrailer, m.valueLen, m.offsetWidth, m.filterProbes, m.valueCodec, m.rawValueBytes} {
		dst = binary.AppendUvarint(dst, v)
	}
	if m.valueCodec == uint64(ValueDict) {
		dst = binary.AppendUvarint(dst, m.dictBytes)
		dst = binary.LittleEndian.AppendUint32(dst, m.dictCRC)
	}
	sections := m.sections[:numSectionsBefore3]
	if v >= versionExtended {
		sections = m.sections[:]
	}
	for _, s := range sections {
		dst = binary.AppendUvarint(dst, s.offset)
		dst = binary.AppendUvarint(dst, s.length)
		dst = binary.LittleEndian.AppendUint32(dst, s.crc)
	}
	if v >= versionExtended {
		whole := uint64(0)
		if m.wholeKeys {
			whole = 1
		}
		for _, f := range [...]uint64{m.filterPrefixLen, whole, m.rangeDels} {
			dst = binary.AppendUvarint(dst, f)
		}
	}
	return dst
}

// decodeMeta parses a meta section and checks the fields against each
// other and against the file: the sections must follow the value area
// back to back and end at metaOffset, and each must have the length its
// fields imply. After it succeeds, every read the reader makes by entry
// ordinal stays inside its section. v is the footer's format version.
func decodeMeta(b []byte, metaOffset uint64, v uint32) (meta, error) {
	var m meta
	var err error
	next := func() uint64 {
		if err != nil {
			return 0
		}
		v, n := binary.Uvarint(b)
		if n <= 0 {
			err = fmt.Errorf("truncated meta section")
			return 0
		}
		b = b[n:]
		return v
	}
	bytesField := func() []byte {
		l := next()
		if err != nil {
			return nil
		}
		if l > uint64(len(b)) {
			err = fmt.Errorf("key affix of %d bytes overruns the meta section", l)
			return nil
		}
		v := b[:l:l]
		b = b[l:]
		return v
	}
	u32 := func() uint32 {
		if err == nil && len(b) < 4 {
			err = fmt.Errorf("truncated meta section")
		}
		if err != nil {
			return 0
		}
		v := binary.LittleEndian.Uint32(b)
		b = b[4:]
		return v
	}
	for _, f := range [...]*uint64{&m.entries, &m.deletions, &m.rawKeyBytes, &m.valueAreaBytes,
		&m.smallestSeq, &m.largestSeq, &m.keyMode, &m.keyLen} {
		*f = next()
	}
	m.prefix = bytesField()
	m.suffix = bytesField()
	for _, f := range [...]*uint64{&m.keyWidth, &m.trailerWidth, &m.baseTrailer, &m.valueLen, &m.offsetWidth, &m.filterProbes, &m.valueCodec, &m.rawValueBytes} {
		*f = next()
	}
	if m.valueCodec == uint64(ValueDict) {
		m.dictBytes = next()
		m.dictCRC = u32()
	}
	listed := numSectionsBefore3
	if v >= versionExtended {
		listed = numSections
	}
	for i := range listed {
		s := &m.sections[i]
		s.offset = next()
		s.length = next()
		s.crc = u32()
	}
	m.wholeKeys = true
	if v >= versionExtended {
		m.filterPrefixLen = next()
		whole := next()
		m.rangeDels = next()
		if err == nil && (whole > 1 || m.filterPrefixLen > maxFilterPrefixLen || whole == 0 && m.filterPrefixLen == 0) {
			err = fmt.Errorf("filter of prefixes of %d bytes with whole keys %d", m.filterPrefixLen, whole)
		}
		m.wholeKeys = whole == 1
	} else {
		// An older table's meta section ends where the range deletion
		// section would start.
		m.sections[secRangeDels] = section{offset: metaOffset, crc: checksum(nil)}
	}
	if err != nil {
		return m, err
	}
	if len(b) != 0 {
		return m, fmt.Errorf("%d trailing bytes in the meta section", len(b))
	}
	return m, m.check(metaOffset)
}

// check validates the decoded fields (see decodeMeta).
func (m *meta) check(metaOffset uint64) error {
	n := m.entries
	// Every entry takes at least one byte somewhere unless its key and
	// value are empty, and a 2^40-entry table is far past any real one.
	if n > 1<<40 || m.deletions > n || m.smallestSeq > m.largestSeq || m.largestSeq > base.MaxSeq {
		return fmt.Errorf("implausible counts (%d entries, %d deletions, seq %d..%d)", n, m.deletions, m.smallestSeq, m.largestSeq)
	}
	groups := (n + groupLen - 1) / groupLen
	pad := func(bytes uint64) uint64 {
		if bytes == 0 && n == 0 {
			return 0
		}
		return bytes + packPad
	}
	want := [numSections]uint64{secChecksums: 4 * groups}
	exact := [numSections]bool{true, true, true, true, true, false, false}
	switch m.keyMode {
	case keysPacked:
		if m.keyWidth < 1 || m.keyWidth > 8 || m.keyLen != uint64(len(m.prefix))+m.keyWidth+uint64(len(m.suffix)) {
			return fmt.Errorf("packed keys of %d bytes: prefix %d + width %d + suffix %d", m.keyLen, len(m.prefix), m.keyWidth, len(m.suffix))
		}
		if n == 0 {
			return fmt.Errorf("packed keys in an empty table")
		}
		want[secKeys] = pad(n * m.keyWidth)
		exact[secIndex] = false // spline size: checked by decodeSpline
	case keysVariable:
		if m.keyLen != 0 || m.keyWidth != 0 || len(m.suffix) != 0 {
			return fmt.Errorf("variable keys with packed-key fields set")
		}
		exact[secKeys] = false // offsets plus key bytes: checked by the reader
		want[secIndex] = 8 * ((n + sampleEvery - 1) / sampleEvery)
	default:
		return fmt.Errorf("unknown key mode %d", m.keyMode)
	}
	if m.trailerWidth > 8 {
		return fmt.Errorf("trailer width %d", m.trailerWidth)
	}
	if m.trailerWidth > 0 {
		want[secTrailers] = pad(n * m.trailerWidth)
	}
	if k := base.Trailer(m.baseTrailer).Kind(); !k.Valid() || m.baseTrailer>>8 > base.MaxSeq {
		return fmt.Errorf("base trailer %#x", m.baseTrailer)
	}
	if m.valueLen > 0 {
		if m.offsetWidth != 0 {
			return fmt.Errorf("fixed-length values with an offset width")
		}
		if l := m.valueLen - 1; l > 0 && n > m.valueAreaBytes/l || n*l != m.valueAreaBytes {
			return fmt.Errorf("%d values of %d bytes are not %d bytes", n, l, m.valueAreaBytes)
		}
	} else {
		if m.offsetWidth < 1 || m.offsetWidth > 8 {
			return fmt.Errorf("value offset width %d", m.offsetWidth)
		}
		want[secOffsets] = 8*groups + pad(n*m.offsetWidth)
	}
	if m.filterProbes > uint64(bloom.Fields9.MaxProbes()) {
		return fmt.Errorf("%d filter probes", m.filterProbes)
	}
	if m.valueCodec > uint64(ValueDict) || m.valueCodec == uint64(ValueRaw) && m.rawValueBytes != m.valueAreaBytes {
		return fmt.Errorf("value codec %d with %d value bytes stored as %d", m.valueCodec, m.rawValueBytes, m.valueAreaBytes)
	}
	if m.dictBytes > MaxDictBytes || m.dictBytes > metaOffset || m.valueAreaBytes > metaOffset-m.dictBytes {
		return fmt.Errorf("dictionary of %d bytes and value area of %d bytes before the meta section at %d", m.dictBytes, m.valueAreaBytes, metaOffset)
	}
	at := m.dictBytes + m.valueAreaBytes
	for i, s := range m.sections {
		if at > metaOffset || s.offset != at || s.length > metaOffset-at {
			return fmt.Errorf("%s section (%d, %d) does not follow at %d", sectionNames[i], s.offset, s.length, at)
		}
		if exact[i] && s.length != want[i] {
			return fmt.Errorf("%s section is %d bytes, want %d", sectionNames[i], s.length, want[i])
		}
		at += s.length
	}
	if at != metaOffset {
		return fmt.Errorf("sections end at %d, the meta section starts at %d", at, metaOffset)
	}
	if f := m.sections[secFilter].length; f%bloom.LineBytes != 0 || (f == 0) != (m.filterProbes == 0) {
		return fmt.Errorf("filter of %d bytes with %d probes", f, m.filterProbes)
	}
	if m.filterPrefixLen > 0 && m.filterProbes == 0 {
		return fmt.Errorf("filter of %d-byte prefixes without a filter", m.filterPrefixLen)
	}
	if (m.rangeDels == 0) != (m.sections[secRangeDels].length == 0) || m.rangeDels > m.sections[secRangeDels].length {
		return fmt.Errorf("%d range tombstones in a range deletion section of %d bytes", m.rangeDels, m.sections[secRangeDels].length)
	}
	return nil
}
