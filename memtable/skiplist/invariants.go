package skiplist

import "github.com/godbbench/godbbench/internal/invariants"

// checkFits is the insert-order invariant (invariants builds): x about to be
// linked at level 0 between prev and next must sort strictly after prev
// (unless prev is the head) and strictly before next (unless next is nil).
// Equal internal keys mean the same (user key, sequence) was added twice,
// which memtable.Rep's contract makes a caller bug.
func (l *List) checkFits(x, prev, next uint32) {
	xp := l.r.addr(x)
	t := lookupOf(xp)
	if (prev != headRef && cmp(l.r.addr(prev), &t) >= 0) || (next != 0 && cmp(l.r.addr(next), &t) <= 0) {
		invariants.Violated("skiplist: entry (%q, seq %d) is out of order at its insert position (added twice?)",
			keyOf(xp), trailerOf(xp).Seq())
	}
}
