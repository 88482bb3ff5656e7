package pebble

import (
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// cacheBudget keeps the block space of Pebble's cache at RocksDB's
// cache_size.
//
// Pebble charges memtables to the block cache: each new memtable reserves
// its arena there (pebble db.go, newMemTable), while RocksDB's cache_size
// holds blocks only. Left alone, db_bench's defaults (8 MiB cache, 64 MiB
// write buffer) leave Pebble no block cache at all: measured 0 cached blocks
// and 0 hits in 60000 Gets over a flushed 100000-key table.
//
// Pebble holds up to two write buffers there in steady state: the active
// memtable and one flushed memtable kept for reuse (db.go memTableRecycle),
// both keeping their reservation. So the cache is created with
// cache_size + 2 x write_buffer_size, and this budget reserves the part of
// those two write buffers that memtables do not hold:
// max(0, 2 x write_buffer_size - memtable reservations), counting live
// memtables and the ones kept after their flush (Pebble's "zombie"
// memtables: the one kept for reuse, and any pinned by iterators). Blocks
// then get cache_size while memtables hold at most two write buffers, and
// less while more memtables wait for their flush (Pebble's charging; RocksDB
// has no such dip). Without the budget, Pebble's small first memtables
// (256 KiB, doubling up to write_buffer_size) would leave a fresh or
// reopened database up to 2 x 64 MiB more block cache than RocksDB has.
//
// The budget follows the memtables by polling Pebble's metrics every
// budgetPoll; Pebble publishes no event when it creates a memtable.
type cacheBudget struct {
	cache  *pebble.Cache
	target int64 // two write buffers
	stop   chan struct{}
	done   sync.WaitGroup

	mu      sync.Mutex // adjust runs on the poller and at close (and in tests)
	held    int64      // bytes reserved now
	release func()     // releases held; nil when nothing is held
}

// budgetPoll is how often the budget follows the memtables. A memtable
// takes at least tens of milliseconds to fill at db_bench rates (64 MiB at
// 500 MB/s is 130 ms), and one Metrics call costs tens of microseconds, so
// 100 ms costs under 0.1% of a core.
const budgetPoll = 100 * time.Millisecond

// newCacheBudget returns a budget of target bytes for memtables.
func newCacheBudget(cache *pebble.Cache, target int64) *cacheBudget {
	return &cacheBudget{cache: cache, target: target, stop: make(chan struct{})}
}

// adjust reserves max(0, target - memtableBytes). The old reservation is
// released before the new one is made: the brief surplus is harmless, while
// the opposite order would evict blocks for a moment.
func (b *cacheBudget) adjust(memtableBytes int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	want := max(0, b.target-memtableBytes)
	if want == b.held {
		return
	}
	if b.release != nil {
		b.release()
		b.release = nil
	}
	if want > 0 {
		b.release = b.cache.Reserve(int(want))
	}
	b.held = want
}

// start adjusts once now and then every budgetPoll until close.
func (b *cacheBudget) start(db *pebble.DB) {
	b.adjust(memtableReservation(db))
	b.done.Add(1)
	go func() {
		defer b.done.Done()
		t := time.NewTicker(budgetPoll)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-t.C:
				b.adjust(memtableReservation(db))
			}
		}
	}()
}

// memtableReservation is what Pebble's memtables hold in the cache.
func memtableReservation(db *pebble.DB) int64 {
	m := db.Metrics()
	return int64(m.MemTable.Size + m.MemTable.ZombieSize)
}

// close stops the polling and releases the reservation; call it before the
// database closes, since the DB holds the last reference to the cache.
func (b *cacheBudget) close() {
	close(b.stop)
	b.done.Wait()
	b.adjust(b.target) // reserves nothing, releasing what is held
}
