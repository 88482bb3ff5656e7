package hashrep

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/godbbench/godbbench/memtable/internal/sortedrun"
)

// node is one entry of a bucket, with its links: next[i] is the following
// node at level i, len(next) the node's height.
type node struct {
	sortedrun.Entry
	next []atomic.Pointer[node]
}

// bucket is one bucket's skiplist: a head whose links have the rep's
// maximum height, and the height the list has reached.
type bucket struct {
	head   node
	height atomic.Int32
	count  atomic.Int64 // entries added, for Options.ListEntries
}

// randomHeight draws a node height: each level above the first with
// probability 1/branching, up to the rep's maximum.
func (r *Rep) randomHeight() int {
	h := 1
	for h < r.height && rand.Uint32()%r.branching == 0 {
		h++
	}
	return h
}

// spliceAt returns the nodes at level lvl that bracket t, starting the walk
// at from: prev < t <= next, next nil at the end.
func spliceAt(from *node, lvl int, t *sortedrun.Target) (prev, next *node) {
	prev = from
	for {
		next = prev.next[lvl].Load()
		if next == nil || !next.Before(t) {
			return prev, next
		}
		prev = next
	}
}

// insert links x, whose height is len(x.next), bottom-up with one
// compare-and-swap per level; a failed one searches that level again from
// the same predecessor.
func (b *bucket) insert(x *node) {
	height := len(x.next)
	for {
		h := b.height.Load()
		if int(h) >= height || b.height.CompareAndSwap(h, int32(height)) {
			break
		}
	}
	t := sortedrun.Target{Key: x.Key, Prefix: x.Prefix, Trailer: x.Trailer}
	var prev, next [maxHeight]*node
	p := &b.head
	for lvl := int(b.height.Load()) - 1; lvl >= 0; lvl-- {
		p, next[lvl] = spliceAt(p, lvl, &t)
		prev[lvl] = p
	}
	for lvl := 0; lvl < height; lvl++ {
		for {
			x.next[lvl].Store(next[lvl])
			if prev[lvl].next[lvl].CompareAndSwap(next[lvl], x) {
				break
			}
			prev[lvl], next[lvl] = spliceAt(prev[lvl], lvl, &t)
		}
	}
}

// seek returns the first node >= t, nil when there is none.
func (b *bucket) seek(t *sortedrun.Target) *node {
	p := &b.head
	var n *node
	for lvl := int(b.height.Load()) - 1; lvl >= 0; lvl-- {
		p, n = spliceAt(p, lvl, t)
	}
	return n
}
