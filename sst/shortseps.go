package sst

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// Short separators. findBlock binary searches sepPrefix, the 8 bytes of
// each separator after the prefix all of them share (sepCommon), and reads
// a separator's bytes only when its 8-byte prefix equals the key's. A
// separator is built to be short (writer.go's separator: the block's last
// key cut one byte past where it differs from the next block's first), so
// in most tables every separator but the last (the table's last key) ends
// within those 8 bytes: db_bench's 16-byte keys give 8.4-byte separators
// sharing 5 bytes, whose 3.4 remaining bytes sepPrefix already holds.
//
// Such a separator is then fully known from sepCommon, its sepPrefix and
// its length after sepCommon, and a Reader of an unpartitioned index keeps
// that length, one byte (sepLen), instead of the separator's bytes and its
// 4-byte end: 1 byte a pair instead of 12 at db_bench's defaults. A
// separator longer than 8 bytes after sepCommon has sepLen longSeparator
// and its bytes after sepCommon kept in longSeps. A table keeps its
// separators whole when more than one in sixteen is long, where the long
// ones would cost more than the short ones save.
//
// The comparison needs no bytes: with equal 8-byte prefixes (zero padded),
// a separator rest s of at most 8 bytes and a key rest k, either k is
// longer than s and starts with s (then s < k), or k is s cut short or s
// itself, possibly followed by zeros that the padding hides (then s >= k).
// So s < k exactly when len(s) < len(k).

// longSeparator is sepLen's mark of a separator kept in longSeps.
const longSeparator = 0xff

// shortSeparators, when false, keeps every table's separators whole (tests
// compare the two forms).
var shortSeparators = true

// longSeps holds the separators (their bytes after sepCommon) too long for
// sepLen: the one at blocks[at[j]] is bytes[ends[j-1]:ends[j]].
type longSeps struct {
	at    []int32
	ends  []uint32
	bytes []byte
}

// shortenSeparators replaces seps and sepEnds with sepLen and longSeps
// where the table qualifies; sepCommon and sepPrefix must be set.
func (r *Reader) shortenSeparators() {
	n := r.blocks.len()
	if !shortSeparators || len(r.partEnd) > 0 || n == 0 {
		return
	}
	common := len(r.sepCommon)
	long := 0
	for i := range n {
		if len(r.separator(i))-common > 8 {
			long++
		}
	}
	if long > n/16 && long > 1 {
		return
	}
	lens := make([]uint8, n)
	var ls longSeps
	if long > 0 {
		ls.at = make([]int32, 0, long)
		ls.ends = make([]uint32, 0, long)
	}
	for i := range n {
		rest := r.separator(i)[common:]
		if len(rest) <= 8 {
			lens[i] = uint8(len(rest))
			continue
		}
		lens[i] = longSeparator
		ls.at = append(ls.at, int32(i))
		ls.bytes = append(ls.bytes, rest...)
		ls.ends = append(ls.ends, uint32(len(ls.bytes)))
	}
	// sepCommon is a slice of seps, which is let go.
	r.sepCommon = bytes.Clone(r.sepCommon)
	r.sepLen, r.longSeps = lens, ls
	r.seps, r.sepEnds = nil, nil
}

// separatorRestBelow reports whether separator m's bytes after sepCommon
// compare below rest, a key's bytes after sepCommon, given that their
// 8-byte prefixes are equal.
func (r *Reader) separatorRestBelow(m int, rest []byte) bool {
	if r.sepLen == nil {
		return bytes.Compare(r.separator(m)[len(r.sepCommon):], rest) < 0
	}
	if l := r.sepLen[m]; l != longSeparator {
		return int(l) < len(rest)
	}
	return bytes.Compare(r.longSeparator(m), rest) < 0
}

// longSeparator returns separator m's bytes after sepCommon, where sepLen
// marks it long.
func (r *Reader) longSeparator(m int) []byte {
	l := &r.longSeps
	j, _ := slices.BinarySearch(l.at, int32(m))
	start := uint32(0)
	if j > 0 {
		start = l.ends[j-1]
	}
	return l.bytes[start:l.ends[j]]
}

// shortSeparator rebuilds separator i of a table with sepLen: a new slice.
func (r *Reader) shortSeparator(i int) []byte {
	s := bytes.Clone(r.sepCommon)
	if l := r.sepLen[i]; l != longSeparator {
		var p [8]byte
		binary.BigEndian.PutUint64(p[:], r.sepPrefix[i])
		return append(s, p[:l]...)
	}
	return append(s, r.longSeparator(i)...)
}
