package skiplist

import "github.com/godbbench/godbbench/memtable/internal/levelindex"

// The upper index (memtable/internal/levelindex) lets a search skip the
// list's levels above levelindex.Level: findGreaterOrEqual, findLast and
// the splice search of Add start from the last indexed node before the key
// at that level. Such a node was found by a walk of that level, so its CAS
// there, and every lower one (links are made bottom-up), had happened: the
// search meets only linked nodes, in order, and finds what a search from
// the head finds. Nodes linked since the build are found by the walk.
//
// Memory: at most 3.4 bytes an entry (levelindex), on the Go heap, counted
// by ApproximateMemoryUsage.
const indexLevel = levelindex.Level

// searchStart is where a search for t begins (levelindex.Keeper.Start):
// the node from to go on from at level, and a node known to sort after t
// (0: none); from sorts before t (not after it, orEqual), or with last is
// where the search for the last node begins (t unused).
func (l *List) searchStart(t *lookup, orEqual, last bool) (from uint32, level int, bigger uint32) {
	if last {
		return l.index.Start(headRef, &l.height, 0, nil)
	}
	return l.index.Start(headRef, &l.height, t.Prefix, func(n uint32) bool {
		c := cmp(l.r.addr(n), t)
		return c < 0 || orEqual && c == 0
	})
}

// indexGrown is called by Add with the list's new entry count n: it
// rebuilds the index when n has reached the next build's length.
func (l *List) indexGrown(n int64) {
	if l.index.Due(n) {
		l.index.Build(n, int(l.height.Load()), levelindex.Nodes{Head: headRef, Addr: l.r.addr, KeyOffset: offKey})
	}
}
