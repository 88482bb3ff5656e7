package lsm

import (
	"testing"

	"github.com/godbbench/godbbench/options"
)

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
