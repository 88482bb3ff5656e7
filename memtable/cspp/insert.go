package cspp

import (
	"runtime"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// Writers never change a published node except in three word-sized ways,
// each under the node's lock bit: appending a child (link and label stored,
// then the header with count+1, which also unlocks), setting the value pin of
// a node that has none, and marking the node dead. Every other change builds
// a copy and publishes it by storing the parent's link, holding the parent's
// lock and then the node's lock (always parent before child, so writers
// cannot deadlock). The replaced node is marked dead while still locked and
// stays frozen until it is reused: a writer that locks a dead node retries
// from the root, a reader that holds it still sees a consistent older state,
// and no registered caller can hold it once it is reused (reclaim.go).

// addState carries what one Add has prepared across retries, so that a retry
// reuses it instead of allocating again.
type addState struct {
	tag   base.Trailer
	value []byte
	vec   uint32 // pin of a fresh version vector, 0 until built
	leaf  uint32 // leaf chain for a suffix of leafLen bytes, 0 until built
	// leafLen is the suffix length of leaf; the suffix is always a tail of
	// the key, so equal lengths mean equal bytes.
	leafLen int
	// shard is the Add's registration shard, also its limbo shard.
	shard uint32
	// reclaim is set when a retirement made a reclamation pass due.
	reclaim bool
}

// Add inserts (key, seq, kind) -> value, copying key and value into the arena.
func (t *Trie) Add(seq uint64, kind base.Kind, key, value []byte) error {
	if limit := uint64(len(t.a.slots)) * 4; uint64(len(key)) >= limit || uint64(len(value)) >= limit {
		return memtable.ErrFull // also keeps slot counts within uint32
	}
	st := addState{tag: base.MakeTrailer(seq, kind), value: value, shard: bufShard(key)}
	reg := t.a.rc.ep.enter(st.shard)
	for {
		done, err := t.insert(&st, key)
		if done {
			if err == nil {
				leaveAdded(reg)
			} else {
				leave(reg)
			}
			if st.reclaim {
				t.a.reclaim() // unregistered, so it can advance the epoch twice
			}
			return err
		}
	}
}

// insert makes one attempt. done is false when a race was lost and the
// attempt must be repeated from the root.
func (t *Trie) insert(st *addState, key []byte) (done bool, err error) {
	a := &t.a
	var parent, parentLink uint32
	n := uint32(rootOffset)
	i := 0
	for {
		h := a.load(n)
		if z := int(hdrZlen(h)); z > 0 {
			zp := a.zpath(n, h)
			j := commonPrefix(zp, key[i:])
			if j < z {
				return t.split(st, key, parent, parentLink, n, h, i, j)
			}
			i += z
		}
		if i == len(key) {
			return t.setFinal(st, n)
		}
		link := a.findChild(n, h, key[i])
		if link == 0 {
			return t.addChild(st, key, parent, parentLink, n, h, i)
		}
		parent, parentLink = n, link
		n = a.load(link)
		i++
	}
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// prepVec builds the fresh version vector if not built yet.
func (t *Trie) prepVec(st *addState) error {
	if st.vec != 0 {
		return nil
	}
	off := t.a.alloc(st.shard, newVecSlots(len(st.value)))
	if off == 0 {
		return memtable.ErrFull
	}
	st.vec = t.a.writeVec(off, st.tag, st.value)
	return nil
}

// prepLeaf builds the leaf chain for suffix (and the vector, placed right
// after it for locality) unless one of that length is already built.
func (t *Trie) prepLeaf(st *addState, suffix []byte) error {
	if st.leaf != 0 && st.leafLen == len(suffix) {
		return nil
	}
	var off uint32
	if st.vec == 0 {
		var voff uint32
		off, voff = t.a.allocPair(st.shard, leafSlots(len(suffix)), newVecSlots(len(st.value)))
		if off == 0 || voff == 0 {
			return memtable.ErrFull
		}
		st.vec = t.a.writeVec(voff, st.tag, st.value)
	} else if off = t.a.alloc(st.shard, leafSlots(len(suffix))); off == 0 {
		return memtable.ErrFull
	}
	st.leaf = t.a.writeLeaf(off, suffix, st.vec)
	st.leafLen = len(suffix)
	return nil
}

// lockNode spins until it holds n's lock and returns the header without the
// lock bit, or ok=false when n is dead.
func (a *arena) lockNode(n uint32) (h uint32, ok bool) {
	for spins := 0; ; spins++ {
		h = a.load(n)
		if h&hdrDead != 0 {
			return 0, false
		}
		if h&hdrLock == 0 && a.cas(n, h, h|hdrLock) {
			return h, true
		}
		if spins > 16 {
			runtime.Gosched()
		}
	}
}

// setFinal adds a version for the key that ends at node n.
func (t *Trie) setFinal(st *addState, n uint32) (bool, error) {
	a := &t.a
	if pin := a.load(n + 1); pin != 0 {
		return true, a.addVersion(pin, st)
	}
	if err := t.prepVec(st); err != nil {
		return true, err
	}
	h, ok := a.lockNode(n)
	if !ok {
		return false, nil
	}
	if a.load(n+1) != 0 {
		a.store(n, h)
		return false, nil
	}
	a.store(n+1, st.vec)
	a.store(n, h)
	return true, nil
}

// addChild hangs a leaf for key[i+1:] under node n with label key[i]: in
// place while n has spare capacity, otherwise by replacing n with a copy of
// the next class.
func (t *Trie) addChild(st *addState, key []byte, parent, parentLink, n, h uint32, i int) (bool, error) {
	a := &t.a
	b := key[i]
	if err := t.prepLeaf(st, key[i+1:]); err != nil {
		return true, err
	}
	c := hdrClass(h)
	if hdrCount(h) < classCap[c] {
		h, ok := a.lockNode(n)
		if !ok {
			return false, nil
		}
		cnt := hdrCount(h)
		if cnt == classCap[c] || a.findChild(n, h, b) != 0 {
			a.store(n, h)
			return false, nil
		}
		if c == classDirect {
			a.store(n+2+uint32(b), st.leaf)
		} else {
			a.store(childBase(n, c)+cnt, st.leaf)
			w := n + 2 + cnt/4
			a.store(w, a.load(w)|uint32(b)<<(8*(cnt%4)))
		}
		a.store(n, h+1<<hdrCountShift) // count+1 and unlock
		return true, nil
	}
	return t.grow(st, b, parent, parentLink, n)
}

// grow replaces the full node n by a copy of the next class that also holds
// the leaf st.leaf under label b. It is kept out of addChild so that the
// in-place path does not pay for zeroing the 1.3 KB children buffer.
func (t *Trie) grow(st *addState, b byte, parent, parentLink, n uint32) (bool, error) {
	a := &t.a
	ph, nh, ok := a.lockPair(parent, parentLink, n)
	if !ok {
		return false, nil
	}
	if a.findChild(n, nh, b) != 0 {
		a.store(n, nh)
		a.store(parent, ph)
		return false, nil
	}
	var ch children
	a.gather(n, nh, &ch)
	ch.labels[ch.n] = b
	ch.links[ch.n] = st.leaf
	ch.n++
	nc := classFor(uint32(ch.n))
	zp := a.zpath(n, nh)
	r := a.alloc(st.shard, nodeSlots(nc, len(zp)))
	if r == 0 {
		a.store(n, nh)
		a.store(parent, ph)
		return true, memtable.ErrFull
	}
	a.writeNode(r, nc, zp, a.load(n+1), ch.labels[:ch.n], ch.links[:ch.n])
	a.publish(parent, ph, parentLink, n, nh, r)
	st.reclaim = a.retire(st.shard, n, nodeSlots(hdrClass(nh), len(zp))) || st.reclaim
	return true, nil
}

// lockPair locks parent, checks that parentLink still points at n, then locks
// n. It returns both headers without lock bits, or ok=false (nothing held)
// when n was replaced meanwhile.
func (a *arena) lockPair(parent, parentLink, n uint32) (ph, nh uint32, ok bool) {
	ph, ok = a.lockNode(parent)
	if !ok {
		return 0, 0, false
	}
	if a.load(parentLink) != n {
		a.store(parent, ph)
		return 0, 0, false
	}
	nh, ok = a.lockNode(n) // n is reachable, so it is not dead
	if !ok {
		a.store(parent, ph)
		return 0, 0, false
	}
	return ph, nh, true
}

// publish switches parentLink from n to its replacement r, marks n dead
// (keeping its lock forever) and unlocks the parent.
func (a *arena) publish(parent, ph, parentLink, n, nh, r uint32) {
	a.store(parentLink, r)
	a.store(n, nh|hdrLock|hdrDead)
	a.store(parent, ph)
}

// split handles a key that leaves node n's compressed path after j bytes
// (key[i:] is matched against the path): n is replaced by a node holding the
// first j path bytes whose children are a copy of n with the rest of its path
// and, unless the key ends there, a leaf for the rest of the key.
func (t *Trie) split(st *addState, key []byte, parent, parentLink, n, h uint32, i, j int) (bool, error) {
	a := &t.a
	ends := i+j == len(key)
	if ends {
		if err := t.prepVec(st); err != nil {
			return true, err
		}
	} else if err := t.prepLeaf(st, key[i+j+1:]); err != nil {
		return true, err
	}
	ph, nh, ok := a.lockPair(parent, parentLink, n)
	if !ok {
		return false, nil
	}
	c := hdrClass(nh)
	zp := a.zpath(n, nh)
	headClass := uint32(1)
	if !ends {
		headClass = 2
	}
	r, tail := a.allocPair(st.shard, nodeSlots(headClass, j), nodeSlots(c, len(zp)-j-1))
	if r == 0 || tail == 0 {
		a.store(n, nh)
		a.store(parent, ph)
		return true, memtable.ErrFull
	}
	// The tail is n verbatim (value pin, labels, links) with a shorter path.
	for s := uint32(1); s < 2+classLabelSlots[c]+classCap[c]; s++ {
		a.slots[tail+s] = a.load(n + s)
	}
	a.slots[tail] = makeHeader(c, hdrCount(nh), uint32(len(zp)-j-1))
	a.putBytes(zpathSlot(tail, c), zp[j+1:])

	var labels [2]byte
	var links [2]uint32
	labels[0], links[0] = zp[j], tail
	if ends {
		a.writeNode(r, headClass, zp[:j], st.vec, labels[:1], links[:1])
	} else {
		labels[1], links[1] = key[i+j], st.leaf
		if labels[1] < labels[0] {
			labels[0], labels[1] = labels[1], labels[0]
			links[0], links[1] = links[1], links[0]
		}
		a.writeNode(r, headClass, zp[:j], 0, labels[:], links[:])
	}
	a.publish(parent, ph, parentLink, n, nh, r)
	st.reclaim = a.retire(st.shard, n, nodeSlots(c, len(zp))) || st.reclaim
	return true, nil
}
