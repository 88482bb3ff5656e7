package sst

import (
	"sync"
	"sync/atomic"
	"time"
)

// shardLock is a cache shard's reader/writer lock: a sync.RWMutex that
// polls for a while before it parks.
//
// Why: a shard is held for a few hundred nanoseconds at most (a hint check
// under the read lock; a slot taken or published under the write lock), but
// sync.RWMutex parks a reader the moment a writer holds the lock, and a
// writer as soon as readers hold it. db_bench locks each benchmark goroutine
// to its OS thread, so a parked goroutine also hands its P to another thread
// and is woken through futexes: several microseconds for a wait of a few
// hundred nanoseconds. readrandom at 2 threads on a 1M-key database
// (--profile=cpu) spent 7% of its CPU parking and waking on shard locks.
// Polling the lock word is a read of a shared cache line, not a write, so the
// holder is not slowed while others wait.
//
// With more benchmark threads than cores a park costs far more: the waker
// readies the parked goroutine on its own P, where it waits until the
// waker's goroutine yields, and benchmark goroutines yield every few
// milliseconds (dbbench/yield.go). A parked writer also makes every reader
// that comes after it park. readrandomwriterandom at 8 threads on 2 cores
// (1M keys, 8 MiB cache) parked 6,869 times on shard locks in 1M
// operations when the poll was 256 tries (well under a microsecond), and
// 0.9% of its reads took 0.1-50 ms (P99 110-140 us); the execution trace
// (--profile=trace) put those waits on the shard locks. An insert that
// evicts can hold a shard for a microsecond or two, so the poll is bounded
// by time, not tries: with shardPoll, 879 parks and a read P99 of 15-24 us.
//
// The bound keeps a waiter from burning its time slice when the holder has
// been descheduled: past shardPoll it parks as before.
type shardLock struct {
	mu sync.RWMutex
}

const (
	// shardPoll is how long a waiter polls before it parks.
	shardPoll = 20 * time.Microsecond
	// shardPollTries is how many tries pass between two clock reads; a
	// failed try is a load of a shared line, a few nanoseconds.
	shardPollTries = 64
)

// shardParks counts the waits that outlasted the poll (tests read it).
var shardParks atomic.Uint64

func (l *shardLock) RLock() {
	if !l.mu.TryRLock() && !pollShard(l.mu.TryRLock) {
		shardParks.Add(1)
		l.mu.RLock()
	}
}

func (l *shardLock) RUnlock() { l.mu.RUnlock() }

func (l *shardLock) Lock() {
	if !l.mu.TryLock() && !pollShard(l.mu.TryLock) {
		shardParks.Add(1)
		l.mu.Lock()
	}
}

func (l *shardLock) Unlock() { l.mu.Unlock() }

// pollShard calls try until it succeeds or shardPoll has passed, and
// reports whether it succeeded.
func pollShard(try func() bool) bool {
	for deadline := time.Now().Add(shardPoll); ; {
		for range shardPollTries {
			if try() {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}
