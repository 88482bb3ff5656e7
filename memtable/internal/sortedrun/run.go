package sortedrun

import (
	"bytes"
	"slices"

	"github.com/godbbench/godbbench/internal/base"
)

// Run is a slice of entries in internal-key order.
type Run []Entry

// Sort sorts entries in place into internal-key order and returns them as a
// Run.
func Sort(entries []Entry) Run {
	slices.SortFunc(entries, Compare)
	return entries
}

// Merge returns a new Run holding the entries of a and b.
func Merge(a, b Run) Run {
	out := make(Run, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if Compare(a[0], b[0]) <= 0 {
			out = append(out, a[0])
			a = a[1:]
		} else {
			out = append(out, b[0])
			b = b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// Search returns the index of the first entry >= (key, trailer), len(r)
// when there is none.
func (r Run) Search(key []byte, trailer base.Trailer) int {
	t := NewTarget(key, trailer)
	lo, hi := 0, len(r)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if r[mid].Before(&t) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Get returns the newest entry of key with sequence <= snapshot.
func (r Run) Get(key []byte, snapshot uint64) (Entry, bool) {
	i := r.Search(key, base.SeekTrailer(snapshot))
	if i < len(r) && bytes.Equal(r[i].Key, key) {
		return r[i], true
	}
	return Entry{}, false
}
