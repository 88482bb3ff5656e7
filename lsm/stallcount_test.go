package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// TestStallCountedOncePerPublication: a stall condition is counted once
// per publication of a version or memtable while it holds, however many
// writers meet it in between, and an L0 condition met while an L0
// compaction runs also counts as its _with_compaction twin.
func TestStallCountedOncePerPublication(t *testing.T) {
	db := mustOpen(t, t.TempDir(), l0SlowdownOptions())
	defer db.Close()
	for f := 0; f < 2; f++ {
		put(t, db, fmt.Sprintf("key%d", f), "v")
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	s := &db.mu.stats
	before := s.stalls
	for range 10 {
		db.countStall(stallL0Slowdown) // writers meeting it since the last publication
	}
	if got := s.stalls[stallL0Slowdown] - before[stallL0Slowdown]; got != 0 {
		t.Fatalf("%d slowdowns counted by writers after the publication that counted it, want 0", got)
	}
	l0 := db.def.current.levels[0]
	l0[0].compacting = true
	db.countStallConditions()
	db.countStall(stallL0Slowdown)
	l0[0].compacting = false
	if got := s.stalls[stallL0Slowdown] - before[stallL0Slowdown]; got != 1 {
		t.Fatalf("%d slowdowns counted for one publication, want 1", got)
	}
	if got := s.stalls[stallL0SlowdownWithCompaction] - before[stallL0SlowdownWithCompaction]; got != 1 {
		t.Fatalf("%d slowdowns with compaction counted while an L0 table was compacting, want 1", got)
	}
	db.countStallConditions()
	if got := s.stalls[stallL0SlowdownWithCompaction] - before[stallL0SlowdownWithCompaction]; got != 1 {
		t.Fatalf("%d slowdowns with compaction counted, want still 1: no L0 compaction ran at the second publication", got)
	}
}

// l0SlowdownOptions slow writes from two L0 tables on and never compact
// L0.
func l0SlowdownOptions() *options.Options {
	o := testOptions()
	o.Level0FileNumCompactionTrigger = 100 // compactions never pick L0
	o.Level0SlowdownWritesTrigger = 2
	o.Level0StopWritesTrigger = 100
	return o
}
