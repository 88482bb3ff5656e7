package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/hugemem"
	"github.com/godbbench/godbbench/options"
)

// TestCompactReleasesKeptRegions checks that a manual compaction leaves no
// memtable region waiting in a pool: the flushes before it hand their
// memtables' regions to the pools, and Compact frees them when
// Config.ReleaseMemoryAfterCompact is set.
func TestCompactReleasesKeptRegions(t *testing.T) {
	o := testOptions()
	o.WriteBufferSize = 32 << 20 // skip_list takes pooled 2 MiB chunks from 32 MiB up
	db, err := Open(t.TempDir(), o, Config{ReleaseMemoryAfterCompact: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	value := make([]byte, 1000)
	for i := range 5000 {
		put(t, db, fmt.Sprintf("key%06d", i), string(value))
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if n := hugemem.ReleaseKept(); n != 0 {
		t.Fatalf("%d regions were still kept after Compact", n)
	}
}

// TestReleaseMemoryAfterCompactIsOptIn checks that Compact frees the
// process's memory only when Config.ReleaseMemoryAfterCompact asks for it.
func TestReleaseMemoryAfterCompactIsOptIn(t *testing.T) {
	calls := 0
	defer func(f func()) { freeOSMemory = f }(freeOSMemory)
	freeOSMemory = func() { calls++ }
	for _, release := range []bool{false, true} {
		calls = 0
		db, err := Open(t.TempDir(), options.Small(), Config{ReleaseMemoryAfterCompact: release})
		if err != nil {
			t.Fatal(err)
		}
		put(t, db, "k", "v")
		if err := db.Compact(nil, nil, -1); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: 0, true: 1}[release]; calls != want {
			t.Errorf("ReleaseMemoryAfterCompact %v: %d releases after one Compact, want %d", release, calls, want)
		}
	}
}
