package sst

import "sync"

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
// The bound keeps a waiter from burning its time slice when the holder has
// been descheduled (more benchmark threads than cores): after shardSpins
// failed tries it parks as before.
type shardLock struct {
	mu sync.RWMutex
}

// shardSpins is how many times a waiter tries the lock before it parks;
// a failed try costs a few nanoseconds, so the whole poll is about a
// microsecond, longer than a shard is held.
const shardSpins = 256

func (l *shardLock) RLock() {
	for range shardSpins {
		if l.mu.TryRLock() {
			return
		}
	}
	l.mu.RLock()
}

func (l *shardLock) RUnlock() { l.mu.RUnlock() }

func (l *shardLock) Lock() {
	for range shardSpins {
		if l.mu.TryLock() {
			return
		}
	}
	l.mu.Lock()
}

func (l *shardLock) Unlock() { l.mu.Unlock() }
