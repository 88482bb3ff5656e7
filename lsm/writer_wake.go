package lsm

import "sync/atomic"

// Waking a waiting writer.
//
// A goroutine woken by a channel send goes to the run queue slot of the
// sender's P that runs next when the sender blocks; an idle P steals it
// only after its M is woken and has slept a further 3 us (in practice the
// kernel's timer slack, tens of microseconds). In a commit pipeline that is
// the whole time a group takes to insert, so a writer the leader hands the
// queue to would mostly start when the leader blocks, and two writers on
// two cores would take turns. So a writer about to wait first polls its
// wake state, on its own P, while there are no more waiting writers than Ps
// (polling beyond that only takes CPU from the writers that run), and only
// then parks on its channel. The waker swaps the state to signaled and
// sends on the channel only when the writer had parked: a writer caught
// polling costs its waker one atomic swap and the scheduler nothing.
//
// The states of writer.wakeState, the zero value first:
//
//	wakeWaiting   the writer polls, or has not started to wait yet
//	wakeParked    the writer sleeps on its channel (set by the writer)
//	wakeSignaled  the waker has signaled (set by the waker)
//
// Each wait ends with the writer setting wakeWaiting again, before anything
// that could lead to its next signal. One signal answers one wait.
//
// Why: db_bench fillrandom --threads=2 used about 1.05 of 2 idle cores
// (CPU profile 4.99 s of samples in 4.73 s) with the early hand-off alone,
// and still did with the poll before parking.

const (
	wakeWaiting uint32 = iota
	wakeParked
	wakeSignaled
)

// spinPolls is how many times a waiting writer polls its state before it
// parks: a few microseconds, about one memtable insert.
const spinPolls = 4000

// signal wakes w and reports whether w had parked.
func (w *writer) signal() (parked bool) {
	if w.wakeState.Swap(wakeSignaled) != wakeParked {
		return false
	}
	w.wake <- struct{}{}
	return true
}

// await waits for w's signal, polling first when spin is set.
func (w *writer) await(spin bool) {
	if spin && w.poll() {
		w.wakeState.Store(wakeWaiting)
		return
	}
	if w.wakeState.CompareAndSwap(wakeWaiting, wakeParked) {
		<-w.wake
	}
	w.wakeState.Store(wakeWaiting)
}

// poll polls w's wake state spinPolls times and reports whether it was
// signaled.
func (w *writer) poll() bool {
	for range spinPolls {
		if w.wakeState.Load() == wakeSignaled {
			return true
		}
	}
	return false
}

// wakeCounts count how the waits that a waker ended had been waiting:
// still polling (or not yet waiting) or parked.
type wakeCounts struct {
	Polling, Parked uint64
}

// add counts one wake.
func (c *wakeCounts) add(parked bool) {
	if parked {
		c.Parked++
	} else {
		c.Polling++
	}
}

// atomicWakeCounts are wakeCounts added to from any goroutine.
type atomicWakeCounts struct {
	polling, parked atomic.Uint64
}

// add adds c's counts.
func (a *atomicWakeCounts) add(c wakeCounts) {
	if c.Polling > 0 {
		a.polling.Add(c.Polling)
	}
	if c.Parked > 0 {
		a.parked.Add(c.Parked)
	}
}

// wakeTotals sums the wakes of next leaders (counted under DB.mu),
// of leaders waiting for publication (under the publisher's mutex) and of
// group members (DB.mu held).
func (db *DB) wakeTotals() wakeCounts {
	t := db.mu.stats.leaderWakes
	db.pub.mu.Lock()
	t.Polling += db.pub.wakes.Polling
	t.Parked += db.pub.wakes.Parked
	db.pub.mu.Unlock()
	t.Polling += db.memberWakes.polling.Load()
	t.Parked += db.memberWakes.parked.Load()
	return t
}

// resetWakes clears the wake counts kept outside the DB's statistics (DB.mu
// held).
func (db *DB) resetWakes() {
	db.pub.mu.Lock()
	db.pub.wakes = wakeCounts{}
	db.pub.mu.Unlock()
	db.memberWakes.polling.Store(0)
	db.memberWakes.parked.Store(0)
}
