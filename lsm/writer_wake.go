package lsm

import (
	"sync/atomic"
	"time"
)

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
// How long to poll: a writer woken from its channel waits in the run-next
// slot of its waker's P until the waker blocks, or until an idle P's thread
// steals it after sleeping 3 us (timer slack makes that tens of
// microseconds), so the two writers of --threads=2 mostly took turns on one
// P: in an execution trace (--profile=trace) of updaterandom, 1M per thread
// after fillseq, fillrandom and overwrite, 8.6 s of scheduling delay after
// such wakes in a 16.5 s run, against 1.2 s blocked, with a poll of ~2 us
// (4000 loads); on fillrandom a 50 us poll cut that delay from 2.07 s to
// 0.12 s. db_bench --threads=2 --num=1000000 --histogram=1, the benchmarks
// of scripts/defaults_table.sh, two rounds on an idle 2-vCPU machine, ops/s
// for 2 us -> 10 us -> 30 us: updaterandom 120-127K -> 173-176K -> 172-173K,
// fillseq 880-956K -> 657-743K -> 609-687K (both writers running at once
// contend for DB.mu and the list's tail), fillrandom, overwrite,
// readwhilewriting, readrandomwriterandom and deleterandom within noise;
// --threads=8 (250K each) fillrandom 353-374K -> 415-419K, updaterandom
// 163-166K -> 178-183K.

const (
	wakeWaiting uint32 = iota
	wakeParked
	wakeSignaled
)

// spinBudget is how long a waiting writer polls before it parks, and
// clockPolls how many polls it makes between readings of the clock.
// Polling does not yield the P: a writer that called runtime.Gosched
// while a flush or compaction was runnable would wait for it to block or
// be preempted, up to 10 ms (tried: updaterandom at 2 threads 120K ops/s
// against 129K without polling longer).
const (
	spinBudget = 10 * time.Microsecond
	clockPolls = 256
)

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

// poll polls w's wake state for up to spinBudget, reading the clock
// every clockPolls polls, and reports whether it was signaled.
func (w *writer) poll() bool {
	var start time.Time
	for i := 1; ; i++ {
		if w.wakeState.Load() == wakeSignaled {
			return true
		}
		if i%clockPolls != 0 {
			continue
		}
		if start.IsZero() {
			start = time.Now()
		} else if time.Since(start) > spinBudget {
			return false
		}
	}
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
