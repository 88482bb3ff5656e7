package txn

import (
	"hash/maphash"
	"sync/atomic"
	"time"

	"github.com/godbbench/godbbench/engine"
)

// lockSlots is the number of slots keys hash to (a power of two). With
// db_bench's randomtransaction (a few keys a transaction, a few threads)
// two live transactions share a slot by chance about once in thousands.
const lockSlots = 1 << 14

// slotTable holds, per slot, its lock (pessimistic) and the number of the
// last commit that wrote a key of the slot.
type slotTable struct {
	seed maphash.Seed
	// locks[i] holds one token while slot i is locked: a send takes the
	// lock, a receive releases it, and a timed select waits for it.
	locks []chan struct{}
	// committed[i] is the commit number of the last commit that wrote a
	// key of slot i, 0 when none did.
	committed []atomic.Uint64
	// lastCommit is the number of the latest commit; snapshots are its
	// values.
	lastCommit atomic.Uint64
}

func newSlotTable(withLocks bool) *slotTable {
	s := &slotTable{seed: maphash.MakeSeed(), committed: make([]atomic.Uint64, lockSlots)}
	if withLocks {
		s.locks = make([]chan struct{}, lockSlots)
		for i := range s.locks {
			s.locks[i] = make(chan struct{}, 1)
		}
	}
	return s
}

// slot is the slot of key.
func (s *slotTable) slot(key []byte) uint32 {
	return uint32(maphash.Bytes(s.seed, key)) & (lockSlots - 1)
}

// lock takes slot i's lock, waiting at most timeout (0: not at all);
// timer is the caller's stopped timer, left stopped.
func (s *slotTable) lock(i uint32, timeout time.Duration, timer *time.Timer) error {
	ch := s.locks[i]
	select {
	case ch <- struct{}{}:
		return nil
	default:
	}
	if timeout == 0 {
		return engine.ErrLockTimeout
	}
	timer.Reset(timeout)
	select {
	case ch <- struct{}{}:
		timer.Stop()
		return nil
	case <-timer.C:
		return engine.ErrLockTimeout
	}
}

// unlock releases slot i's lock, which the caller holds.
func (s *slotTable) unlock(i uint32) {
	<-s.locks[i]
}

// stamp records that the commit numbered n wrote keys of the slots.
func (s *slotTable) stamp(slots []uint32, n uint64) {
	for _, i := range slots {
		s.committed[i].Store(n)
	}
}

// changedSince reports whether a commit after the one numbered n wrote a
// key of slot i.
func (s *slotTable) changedSince(i uint32, n uint64) bool {
	return s.committed[i].Load() > n
}
