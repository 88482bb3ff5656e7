package offsetskiplist

import "github.com/godbbench/godbbench/internal/invariants"

// checkFits is the insert-order invariant (invariants builds): a new node
// for t's key about to be linked at level 0 between prev and next must sort
// strictly after prev's key (unless prev is the head) and strictly before
// next's (unless next is nil). An equal key belongs in that node's
// versions, never in a second node.
func (l *List) checkFits(t *lookup, prev, next uint32) {
	if (prev != l.head && cmp(l.r.addr(prev), t) >= 0) || (next != 0 && cmp(l.r.addr(next), t) <= 0) {
		invariants.Violated("offsetskiplist: key %q is out of order at its insert position", t.key)
	}
}
