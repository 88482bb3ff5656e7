package sst

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestShardLockExcludes: writers under Lock never overlap each other or a
// reader under RLock. Each writer copies a counter, yields, and stores the
// copy plus one, so an overlap of two writers loses an increment; a reader
// that overlaps a writer sees the two counters apart.
func TestShardLockExcludes(t *testing.T) {
	var l shardLock
	var a, b int
	const writers, readers, rounds = 4, 4, 2000
	var wg sync.WaitGroup
	torn := make(chan string, readers)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				l.Lock()
				n := a
				a = n + 1
				runtime.Gosched()
				b = n + 1
				l.Unlock()
			}
		}()
	}
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				l.RLock()
				x := a
				runtime.Gosched()
				y := b
				l.RUnlock()
				if x != y {
					torn <- "a reader saw a writer's half-done update"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(torn)
	for msg := range torn {
		t.Fatal(msg)
	}
	if a != writers*rounds || b != a {
		t.Fatalf("counters %d and %d after %d increments: writers overlapped", a, b, writers*rounds)
	}
}

// TestShardLockParksPastSpin: a waiter whose lock stays held past the poll
// parks and still gets the lock when it is released, in both modes.
func TestShardLockParksPastSpin(t *testing.T) {
	var l shardLock
	for _, mode := range []string{"reader", "writer"} {
		shardParks.Store(0)
		l.Lock()
		got := make(chan struct{})
		go holdOnce(&l, mode, got)
		time.Sleep(5 * time.Millisecond) // far past shardPoll
		if shardParks.Load() == 0 {
			t.Fatalf("%s waited 5 ms without parking", mode)
		}
		select {
		case <-got:
			t.Fatalf("%s got the lock while a writer held it", mode)
		default:
		}
		l.Unlock()
		<-got
	}
}

// TestShardLockPollsBeforeParking: a waiter polls for shardPoll before it
// parks, in both modes. With more benchmark threads than cores a parked
// waiter waits a time slice (cache_lock.go), and an insert that evicts can
// hold a shard for microseconds, so the poll is bounded by time, not by a
// number of tries. The waiter's park is seen from another goroutine
// spinning on shardParks, so it is seen at or after the park.
func TestShardLockPollsBeforeParking(t *testing.T) {
	for _, mode := range []string{"reader", "writer"} {
		var l shardLock
		l.Lock()
		before := shardParks.Load()
		var start atomic.Int64
		got := make(chan struct{})
		go func() {
			start.Store(time.Now().UnixNano())
			holdOnce(&l, mode, got)
		}()
		for shardParks.Load() == before {
			runtime.Gosched()
		}
		parkedAfter := time.Duration(time.Now().UnixNano() - start.Load())
		l.Unlock()
		<-got
		if parkedAfter < shardPoll {
			t.Errorf("%s parked %v after it began to wait, before its poll of %v ended", mode, parkedAfter, shardPoll)
		}
	}
}

// holdOnce takes l in mode ("reader" or "writer"), closes got while it
// holds it, and lets go.
func holdOnce(l *shardLock, mode string, got chan struct{}) {
	if mode == "reader" {
		l.RLock()
		defer l.RUnlock()
	} else {
		l.Lock()
		defer l.Unlock()
	}
	close(got)
}
