// Package rangedel holds range tombstones: a tombstone [Start, End) at
// sequence Seq deletes every version of every user key k with
// Start <= k < End whose sequence is below Seq. Keys compare bytewise.
//
// # Contract
//
//   - Build turns any set of tombstones, overlapping or not, into a List of
//     fragments: disjoint half-open key ranges in ascending order, each
//     carrying the sequences of every tombstone that covers all of it,
//     newest first. Two tombstones cover a key exactly when the fragment
//     holding the key lists both sequences, so a List answers "which
//     tombstones cover k" with one binary search (RocksDB's
//     FragmentedRangeTombstoneList, Pebble's keyspan fragments).
//   - A List is immutable once built and safe for concurrent readers. It
//     refers to the key bytes it was built or decoded from; callers keep
//     those alive and unchanged.
//   - Decode refuses bytes that are not a List's encoding (Encode below)
//     with an error, never a panic.
package rangedel

import (
	"bytes"
	"cmp"
	"slices"
)

// Tombstone deletes the keys in [Start, End) older than Seq.
type Tombstone struct {
	Start, End []byte
	Seq        uint64
}

// Fragment is a key range [Start, End) and the sequences of the tombstones
// covering all of it, in descending order.
type Fragment struct {
	Start, End []byte
	Seqs       []uint64
}

// List is a fragmented set of tombstones (see the package doc). The zero
// List and a nil *List are empty.
type List struct {
	frags []Fragment
	count int // sequences over all fragments
}

// Build fragments ts; empty tombstones (Start >= End) are ignored. ts is
// reordered.
func Build(ts []Tombstone) *List {
	ts = slices.DeleteFunc(ts, func(t Tombstone) bool { return bytes.Compare(t.Start, t.End) >= 0 })
	if len(ts) == 0 {
		return &List{}
	}
	slices.SortFunc(ts, func(a, b Tombstone) int { return bytes.Compare(a.Start, b.Start) })
	bounds := make([][]byte, 0, 2*len(ts))
	for _, t := range ts {
		bounds = append(bounds, t.Start, t.End)
	}
	slices.SortFunc(bounds, bytes.Compare)
	bounds = slices.CompactFunc(bounds, bytes.Equal)
	l := &List{}
	var active []Tombstone
	var seqs []uint64
	next := 0
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]
		for next < len(ts) && bytes.Compare(ts[next].Start, lo) <= 0 {
			active = append(active, ts[next])
			next++
		}
		// Every end is a bound, so an active tombstone that has not
		// ended at lo reaches hi.
		active = slices.DeleteFunc(active, func(t Tombstone) bool { return bytes.Compare(t.End, lo) <= 0 })
		if len(active) == 0 {
			continue
		}
		start := len(seqs)
		for _, t := range active {
			seqs = append(seqs, t.Seq)
		}
		fs := seqs[start:]
		slices.SortFunc(fs, func(a, b uint64) int { return cmp.Compare(b, a) })
		fs = slices.Compact(fs)
		seqs = seqs[:start+len(fs)]
		l.add(lo, hi, fs)
	}
	return l
}

// add appends the fragment [start, end) with seqs, joining it to the last
// fragment when that one ends at start with the same sequences.
func (l *List) add(start, end []byte, seqs []uint64) {
	if n := len(l.frags); n > 0 {
		last := &l.frags[n-1]
		if bytes.Equal(last.End, start) && slices.Equal(last.Seqs, seqs) {
			last.End = end
			return
		}
	}
	l.frags = append(l.frags, Fragment{Start: start, End: end, Seqs: seqs})
	l.count += len(seqs)
}

// FromFragments returns the List of frags, which must be disjoint, in
// ascending order, with non-empty descending Seqs (a List's Fragments
// filtered fragment by fragment keep that shape).
func FromFragments(frags []Fragment) *List {
	l := &List{}
	for _, f := range frags {
		if len(f.Seqs) > 0 {
			l.add(f.Start, f.End, f.Seqs)
		}
	}
	return l
}

// Empty reports whether l holds no tombstone.
func (l *List) Empty() bool { return l == nil || len(l.frags) == 0 }

// Count is the number of (fragment, sequence) pairs: the tombstones a
// table stores for l.
func (l *List) Count() int {
	if l == nil {
		return 0
	}
	return l.count
}

// Fragments are l's fragments in key order; callers must not modify them.
func (l *List) Fragments() []Fragment {
	if l == nil {
		return nil
	}
	return l.frags
}

// Tombstones appends one tombstone per (fragment, sequence) pair of l to
// dst, for merging lists with Build.
func (l *List) Tombstones(dst []Tombstone) []Tombstone {
	for _, f := range l.Fragments() {
		for _, s := range f.Seqs {
			dst = append(dst, Tombstone{Start: f.Start, End: f.End, Seq: s})
		}
	}
	return dst
}

// find returns the index of the fragment holding key, or -1.
func (l *List) find(key []byte) int {
	i := l.lastStartingAtOrBefore(key)
	if i < 0 || bytes.Compare(key, l.frags[i].End) >= 0 {
		return -1
	}
	return i
}

// lastStartingAtOrBefore returns the index of the last fragment starting
// at or before key, or -1.
func (l *List) lastStartingAtOrBefore(key []byte) int {
	if l == nil {
		return -1
	}
	// The first fragment starting after key, then the one before it.
	i, _ := slices.BinarySearchFunc(l.frags, key, func(f Fragment, k []byte) int {
		if bytes.Compare(f.Start, k) <= 0 {
			return -1
		}
		return 1
	})
	return i - 1
}

// Covering returns the newest sequence at or below snapshot of a tombstone
// covering key, or 0 when none does. A point entry of key with a sequence
// below the result is deleted for readers at snapshot.
func (l *List) Covering(key []byte, snapshot uint64) uint64 {
	i := l.find(key)
	if i < 0 {
		return 0
	}
	return newestAtOrBelow(l.frags[i].Seqs, snapshot)
}

// Truncate returns the part of l inside [lo, hi); a nil bound is
// unbounded. The result shares l's sequences and key bytes.
func (l *List) Truncate(lo, hi []byte) *List {
	out := &List{}
	for _, f := range l.Fragments() {
		start, end := f.Start, f.End
		if lo != nil && bytes.Compare(start, lo) < 0 {
			start = lo
		}
		if hi != nil && bytes.Compare(end, hi) > 0 {
			end = hi
		}
		if bytes.Compare(start, end) < 0 {
			out.add(start, end, f.Seqs)
		}
	}
	return out
}

// Bounds returns the smallest start and the largest end of l's fragments
// (nil, nil for an empty List).
func (l *List) Bounds() (smallest, largest []byte) {
	if l.Empty() {
		return nil, nil
	}
	return l.frags[0].Start, l.frags[len(l.frags)-1].End
}

// SeqRange returns the smallest and the largest sequence in l (0, 0 for an
// empty List).
func (l *List) SeqRange() (smallest, largest uint64) {
	for i, f := range l.Fragments() {
		if i == 0 {
			smallest, largest = f.Seqs[len(f.Seqs)-1], f.Seqs[0]
			continue
		}
		smallest = min(smallest, f.Seqs[len(f.Seqs)-1])
		largest = max(largest, f.Seqs[0])
	}
	return smallest, largest
}

// OldestAbove returns the oldest sequence above seq of a tombstone covering
// key, or 0 when no covering tombstone is newer than seq.
func (l *List) OldestAbove(key []byte, seq uint64) uint64 {
	i := l.find(key)
	if i < 0 {
		return 0
	}
	var oldest uint64
	for _, s := range l.frags[i].Seqs {
		if s <= seq {
			break
		}
		oldest = s
	}
	return oldest
}

// Reaches reports whether a fragment starting before key ends at or after
// it: cutting l at key would split that fragment, or leave it ending at
// key itself.
func (l *List) Reaches(key []byte) bool {
	if l.Empty() {
		return false
	}
	// The first fragment starting at or after key, then the one before it.
	i, _ := slices.BinarySearchFunc(l.frags, key, func(f Fragment, k []byte) int {
		if bytes.Compare(f.Start, k) < 0 {
			return -1
		}
		return 1
	})
	return i > 0 && bytes.Compare(l.frags[i-1].End, key) >= 0
}
