package engine

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// FamilySlots holds the column families of a DB opened with
// --num_column_families > 1, for an engine's ColumnFamilies: slot i holds
// db_bench's family i once it exists. Every operation reads the slots
// without a lock; Create serializes the creation of missing families. A
// nil *FamilySlots is a DB opened with the default family alone.
type FamilySlots[F any] struct {
	slots  []atomic.Pointer[F]
	create sync.Mutex
}

// ErrNoColumnFamilies is the error of creating a column family in a DB
// opened without --num_column_families.
var ErrNoColumnFamilies = errors.New("the database was opened without --num_column_families")

// NewFamilySlots returns n empty slots.
func NewFamilySlots[F any](n int) *FamilySlots[F] {
	return &FamilySlots[F]{slots: make([]atomic.Pointer[F], n)}
}

// Len is the number of slots: --num_column_families.
func (s *FamilySlots[F]) Len() int {
	if s == nil {
		return 0
	}
	return len(s.slots)
}

// Get returns family i, nil when it does not exist.
func (s *FamilySlots[F]) Get(i int) *F {
	if s == nil || i < 0 || i >= len(s.slots) {
		return nil
	}
	return s.slots[i].Load()
}

// Set puts f in slot i, which must be in range.
func (s *FamilySlots[F]) Set(i int, f *F) { s.slots[i].Store(f) }

// Take empties slot i and returns what it held.
func (s *FamilySlots[F]) Take(i int) *F { return s.slots[i].Swap(nil) }

// Create returns family i, made by create (under the slots' lock, so
// once) when it does not exist yet.
func (s *FamilySlots[F]) Create(i int, create func() (*F, error)) (*F, error) {
	if s == nil {
		return nil, ErrNoColumnFamilies
	}
	if i < 0 || i >= len(s.slots) {
		return nil, fmt.Errorf("column family %d of %d", i, len(s.slots))
	}
	s.create.Lock()
	defer s.create.Unlock()
	if f := s.slots[i].Load(); f != nil {
		return f, nil
	}
	f, err := create()
	if err != nil {
		return nil, err
	}
	s.slots[i].Store(f)
	return f, nil
}
