package offsetskiplist

import "github.com/godbbench/godbbench/internal/invariants"

// checkFits is the insert-order invariant (invariants builds): a new node
// for key about to be linked at level 0 between prev and next must sort
// strictly after prev's key (unless prev is the head) and strictly before
// next's (unless next is nil). An equal key belongs in that node's version
// chain, never in a second node.
func (l *List) checkFits(key []byte, prev, next uint32) {
	if (prev != l.head && compareKeys(l.key(prev), key) >= 0) || (next != 0 && compareKeys(l.key(next), key) <= 0) {
		invariants.Violated("offsetskiplist: key %q is out of order at its insert position", key)
	}
}
