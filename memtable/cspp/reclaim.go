package cspp

import (
	"sync"
	"sync/atomic"
)

// Reclamation of replaced nodes and outgrown version blocks.
//
// A writer that replaced a node (growth copy, path split) or a version block
// retires the old run (offset, size) after publishing the replacement. A
// run goes through two stages before it is reused:
//
//  1. retired, tagged with the epoch r loaded after the unlink. Once E >=
//     r+2 no registered goroutine can hold it (epoch.go). But an iterator
//     keeps node and block offsets from one registration to the next (it
//     lets go of one when closed and every few thousand steps,
//     itercalls.go), so the run is not free yet.
//  2. aged: when runs leave stage 1 the reclamation generation gen is
//     bumped, then E is loaded again as rb and the runs are tagged with it.
//     They are pushed on the free lists once E >= rb+2.
//
// An iterator loads gen when it registers and, when it registers again,
// re-seeks from the root if gen changed. That is safe: let X be a run the
// iterator reached during registration k (which may span many of its
// calls), t1 registration k's load of gen, t2 registration k+1's, and tb
// the bump of the pass that moved X to stage 2 (gen loads and bumps are
// atomic, so totally ordered).
//   - tb < t1 is impossible: X left stage 1 only once E >= r+2, that is
//     after every registration that could reach X had ended, registration
//     k included, and t1 lies inside registration k.
//   - t1 < tb < t2: registration k+1 sees gen changed and re-seeks before
//     it reads anything it kept.
//   - t2 < tb: registration k+1 began before tb, so in an epoch <= rb, and
//     X is freed only once E >= rb+2, after registration k+1 has ended.
//
// So an iterator that sees gen unchanged holds no freed run for the whole
// registration, and one that sees it changed drops every offset it held.
// What the iterator keeps of its entry while not registered (tag, value
// offset, key copies) points at nothing reusable: value bytes are never
// retired.
//
// Free lists are intrusive stacks, one per exact size in slots up to
// maxReuseSlots and per shard: the head offset in heads[size], the next
// offset in the first slot of each free run. Size classes repeat a lot (a
// class-3 node with an empty path is always 7 slots, a leaf with a 12-byte
// path always 5, a version block 1+4*cap), so exact sizes match well
// without splitting or coalescing. alloc looks at its shard's heads[n] with
// one atomic load and takes the shard's mutex only when a run of that size
// is waiting. A reused run is zeroed before it is handed out:
// node writers assume zero label bytes and direct-node links, as in fresh
// pages.

// maxReuseSlots bounds the sizes kept on free lists; a larger run (a direct
// node with a compressed path, a version block of 256 or more entries)
// stays dead.
const maxReuseSlots = 1024

// reclaimEvery is how many retirements of one shard trigger a reclamation
// pass. A pass scans the 16 counters of one parity up to twice and locks
// each of the 16 shards once (about 50 atomic operations, 0.5 µs);
// random 16-byte keys retire 0.53 runs an Add (TestDeadWeight), so a pass
// every 32 retirements costs about 8 ns an Add.
const reclaimEvery = 32

// run is a retired run of slots and the epoch tag of its current stage.
type run struct {
	off, n uint32
	epoch  uint64
}

// runQueue is a FIFO of runs in ascending epoch order.
type runQueue struct {
	runs []run
	head int
}

func (q *runQueue) push(r run) { q.runs = append(q.runs, r) }

// popReady removes and passes to f every run with epoch+2 <= e.
func (q *runQueue) popReady(e uint64, f func(run)) int {
	k := 0
	for q.head < len(q.runs) && q.runs[q.head].epoch+2 <= e {
		f(q.runs[q.head])
		q.head++
		k++
	}
	if q.head == len(q.runs) {
		q.runs, q.head = q.runs[:0], 0
	} else if q.head > len(q.runs)/2 {
		n := copy(q.runs, q.runs[q.head:])
		q.runs, q.head = q.runs[:n], 0
	}
	return k
}

// reclaimer holds the retired runs and the free lists.
//
// Everything is sharded by the writer's registration shard: a writer
// retires into its shard's queue and reuses runs from its shard's free
// lists, under its shard's mutex, so writers on different shards share no
// lock and no cache line (one shared free list made BenchmarkAddParallel
// 60% slower than without reuse: every pop and push bounced the same
// lines between the writers). A run goes back to the free lists of the shard
// that retired it; writers keep their key buffer, hence their shard, so
// each mostly reuses what it retired. A pass holds passMu (taken with
// TryLock: a pass already running is enough) and visits every shard. None
// of these locks is taken on the read path.
type reclaimer struct {
	ep epochs
	_  [64]byte
	// gen counts passes that moved runs from retired to aged.
	gen atomic.Uint64
	_   [56]byte

	passMu sync.Mutex
	shards [epochShards]reclaimShard
}

// reclaimShard is the retired runs and free lists of one registration
// shard.
type reclaimShard struct {
	mu sync.Mutex
	// retired and aged are in ascending epoch order.
	retired runQueue
	aged    runQueue
	since   int // retirements since this shard last asked for a pass
	// Statistics, under mu.
	runs   uint64 // runs retired, any size
	slots  uint64 // slots retired, or too large to retire
	freed  uint64 // slots pushed on the free lists
	reused uint64 // slots popped from the free lists
	// heads[n] is the first free run of n slots; written under mu, loaded
	// without it to skip the lock when the list is empty.
	heads [maxReuseSlots + 1]atomic.Uint32
	_     [64]byte
}

// retire hands over a run that no new reader can reach (its replacement is
// published); shard is the retiring writer's registration shard. It reports
// whether a reclamation pass is due.
func (a *arena) retire(shard, off, n uint32) bool {
	rs := &a.rc.shards[shard]
	rs.mu.Lock()
	rs.runs++
	rs.slots += uint64(n)
	if n > maxReuseSlots {
		rs.mu.Unlock()
		return false
	}
	// E is loaded under the lock so the queue stays in ascending order.
	rs.retired.push(run{off: off, n: n, epoch: a.rc.ep.epoch.Load()})
	rs.since++
	due := rs.since >= reclaimEvery
	if due {
		rs.since = 0
	}
	rs.mu.Unlock()
	return due
}

// ready reports whether the oldest run of q may leave its stage at epoch e.
func (q *runQueue) ready(e uint64) bool {
	return q.head < len(q.runs) && q.runs[q.head].epoch+2 <= e
}

// reclaim advances the epoch when it can and moves runs along their stages.
// The caller must not be registered (it would hold the epoch back).
func (a *arena) reclaim() {
	rc := &a.rc
	if !rc.passMu.TryLock() {
		return
	}
	defer rc.passMu.Unlock()
	if rc.ep.tryAdvance() {
		rc.ep.tryAdvance()
	}
	e := rc.ep.epoch.Load()
	// Retired runs past their first grace period become aged. The bump comes
	// after E >= r+2 was seen (e) for every run moved, since a run retired
	// after e was loaded has r >= e, and before rb is loaded (see the proof
	// above).
	bumped := false
	var rb uint64
	for i := range rc.shards {
		rs := &rc.shards[i]
		rs.mu.Lock()
		rs.aged.popReady(e, func(r run) {
			a.slots[r.off] = rs.heads[r.n].Load()
			rs.heads[r.n].Store(r.off)
			rs.freed += uint64(r.n)
		})
		if rs.retired.ready(e) {
			if !bumped {
				rc.gen.Add(1)
				rb = rc.ep.epoch.Load()
				bumped = true
			}
			rs.retired.popReady(e, func(r run) {
				r.epoch = rb
				rs.aged.push(r)
			})
		}
		rs.mu.Unlock()
	}
}

// reuse pops a free run of exactly n slots of the given shard, zeroed, or
// returns 0.
func (a *arena) reuse(shard, n uint32) uint32 {
	if n > maxReuseSlots || a.rc.shards[shard].heads[n].Load() == 0 {
		return 0
	}
	return a.reuseSlow(shard, n)
}

func (a *arena) reuseSlow(shard, n uint32) uint32 {
	if a.next.Load() > uint64(len(a.slots)) {
		return 0 // exhausted: stay exhausted
	}
	rs := &a.rc.shards[shard]
	rs.mu.Lock()
	off := rs.heads[n].Load()
	if off == 0 {
		rs.mu.Unlock()
		return 0
	}
	rs.heads[n].Store(a.slots[off])
	rs.reused += uint64(n)
	rs.mu.Unlock()
	clear(a.slots[off : off+n])
	return off
}

// reclaimStats reports runs retired, and slots retired, freed and reused.
func (a *arena) reclaimStats() (runs, dead, freed, reused uint64) {
	for i := range a.rc.shards {
		rs := &a.rc.shards[i]
		rs.mu.Lock()
		runs += rs.runs
		dead += rs.slots
		freed += rs.freed
		reused += rs.reused
		rs.mu.Unlock()
	}
	return runs, dead, freed, reused
}
