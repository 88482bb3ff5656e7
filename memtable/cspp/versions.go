package cspp

import (
	"errors"
	"math/bits"
	"runtime"
	"sort"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// errDuplicate is returned when the same (user key, sequence) is added twice.
var errDuplicate = errors.New("cspp: duplicate sequence number for user key")

// Version vector of one user key:
//
//	pin   (1 slot):  offset of the current block | pinLock
//	block (1 + 4*cap slots): num word, then num entries
//	num word: bits 0..30 entry count, bit 31 unsorted
//	entry (4 slots): tag low 32 bits, tag high 32 bits, value slot, value length
//
// A node's value slot holds the pin's offset and never changes once set, so a
// node can be copied while its versions keep growing. The block capacity is
// implicit: the next power of two >= count. A version is appended in place
// while capacity remains (entry written, then the num word stored);
// otherwise a block of twice the capacity is built, entries sorted by tag
// ascending, and the pin switched to it. Entries are in ascending tag order
// unless the unsorted bit is set: a version older than the last one appended
// (concurrent writers can deliver a key's sequences out of order) sets it,
// and readers then scan the whole block. Appending in place either way keeps
// memory linear in the number of versions; re-sorting a copy on every
// out-of-order version would cost O(versions) bytes per Add on a hot key.
const (
	pinLock     = 1 << 31
	unsortedBit = 1 << 31
	entrySlots  = 4
)

// blockCap is the capacity of a block holding num entries.
func blockCap(num uint32) uint32 {
	if num <= 1 {
		return 1
	}
	return 1 << bits.Len32(num-1)
}

// newVecSlots is the size of a fresh version vector with one value of vlen
// bytes: pin, num, one entry and the value, contiguous.
func newVecSlots(vlen int) uint32 { return 2 + entrySlots + slotsFor(vlen) }

// writeVec lays out a fresh version vector at off and returns the pin offset.
func (a *arena) writeVec(off uint32, tag base.Trailer, value []byte) uint32 {
	a.slots[off] = off + 1
	a.slots[off+1] = 1
	var voff uint32
	if len(value) > 0 {
		voff = off + 2 + entrySlots
		a.putBytes(voff, value)
	}
	a.writeEntry(off+2, tag, voff, uint32(len(value)))
	return off
}

func (a *arena) writeEntry(e uint32, tag base.Trailer, voff, vlen uint32) {
	a.slots[e] = uint32(tag)
	a.slots[e+1] = uint32(tag >> 32)
	a.slots[e+2] = voff
	a.slots[e+3] = vlen
}

func (a *arena) entryTag(e uint32) base.Trailer {
	return base.Trailer(a.slots[e+1])<<32 | base.Trailer(a.slots[e])
}

func (a *arena) entryValue(e uint32) []byte {
	return a.byteRange(a.slots[e+2], a.slots[e+3])
}

// block returns the current block of the pin, its entry count and whether
// the entries are sorted.
func (a *arena) block(pin uint32) (blk, num uint32, sorted bool) {
	blk = a.load(pin) &^ pinLock
	w := a.load(blk)
	return blk, w &^ unsortedBit, w&unsortedBit == 0
}

// entryAt is the slot of entry k of block blk.
func entryAt(blk, k uint32) uint32 { return blk + 1 + k*entrySlots }

// visible returns the newest entry of the vector with sequence <= snapshot.
func (a *arena) visible(pin uint32, snapshot uint64) (uint32, bool) {
	blk, num, sorted := a.block(pin)
	if sorted {
		for k := num; k > 0; k-- {
			e := entryAt(blk, k-1)
			if a.entryTag(e).Seq() <= snapshot {
				return e, true
			}
		}
		return 0, false
	}
	var best uint32
	var bestSeq uint64
	for k := uint32(0); k < num; k++ {
		e := entryAt(blk, k)
		if s := a.entryTag(e).Seq(); s <= snapshot && (best == 0 || s > bestSeq) {
			best, bestSeq = e, s
		}
	}
	return best, best != 0
}

// lockPin spins until it owns the pin's lock and returns the block offset.
func (a *arena) lockPin(pin uint32) uint32 {
	for spins := 0; ; spins++ {
		p := a.load(pin)
		if p&pinLock == 0 && a.cas(pin, p, p|pinLock) {
			return p
		}
		if spins > 16 {
			runtime.Gosched()
		}
	}
}

// addVersion adds (st.tag, st.value) to the vector at pin. It sets
// st.reclaim when retiring the outgrown block made a reclamation pass due.
func (a *arena) addVersion(pin uint32, st *addState) error {
	tag, value := st.tag, st.value
	var voff uint32
	if len(value) > 0 {
		if voff = a.alloc(st.shard, slotsFor(len(value))); voff == 0 {
			return memtable.ErrFull
		}
		a.putBytes(voff, value)
	}
	blk := a.lockPin(pin)
	w := a.slots[blk]
	num, flag := w&^unsortedBit, w&unsortedBit
	seq := tag.Seq()
	last := a.entryTag(entryAt(blk, num-1)).Seq()
	if flag != 0 || seq <= last {
		// Out of order: the duplicate check needs every entry.
		for k := uint32(0); k < num; k++ {
			if a.entryTag(entryAt(blk, k)).Seq() == seq {
				a.store(pin, blk) // unlock
				return errDuplicate
			}
		}
		if seq < last {
			flag = unsortedBit
		}
	}
	if num < blockCap(num) {
		a.writeEntry(entryAt(blk, num), tag, voff, uint32(len(value)))
		a.store(blk, (num+1)|flag)
		a.store(pin, blk) // unlock
		return nil
	}
	nb := a.alloc(st.shard, 1+entrySlots*blockCap(num+1))
	if nb == 0 {
		a.store(pin, blk)
		return memtable.ErrFull
	}
	copy(a.slots[entryAt(nb, 0):], a.slots[entryAt(blk, 0):entryAt(blk, num)])
	a.writeEntry(entryAt(nb, num), tag, voff, uint32(len(value)))
	if flag != 0 {
		sort.Sort(entrySorter(a.slots[entryAt(nb, 0):entryAt(nb, num+1)]))
	}
	a.slots[nb] = num + 1
	a.store(pin, nb) // publish and unlock
	if a.retire(st.shard, blk, 1+entrySlots*num) {
		st.reclaim = true
	}
	return nil
}

// entrySorter orders a run of entries by tag ascending.
type entrySorter []uint32

func (s entrySorter) Len() int { return len(s) / entrySlots }
func (s entrySorter) tag(i int) base.Trailer {
	return base.Trailer(s[i*entrySlots+1])<<32 | base.Trailer(s[i*entrySlots])
}
func (s entrySorter) Less(i, j int) bool { return s.tag(i) < s.tag(j) }
func (s entrySorter) Swap(i, j int) {
	a, b := s[i*entrySlots:i*entrySlots+entrySlots], s[j*entrySlots:j*entrySlots+entrySlots]
	for k := range entrySlots {
		a[k], b[k] = b[k], a[k]
	}
}
