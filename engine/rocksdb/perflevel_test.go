//go:build rocksdb

package rocksdb

import (
	"fmt"
	"runtime"
	"testing"
)

// TestStartThreadSetsPerfLevel: with db_bench's default --perf_level (1,
// disabled) a thread's reads leave the perf context untouched; at 2
// (counting) they count key comparisons.
func TestStartThreadSetsPerfLevel(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	ts := db.(*DB)
	for i := range 1000 {
		if err := db.Put([]byte(fmt.Sprintf("key%06d", i)), []byte("v"), nil); err != nil {
			t.Fatal(err)
		}
	}
	reads := func(level int) uint64 {
		ts.StartThread(level) // resets the context too
		for i := range 1000 {
			if _, err := db.Get([]byte(fmt.Sprintf("key%06d", i)), func([]byte) {}); err != nil {
				t.Fatal(err)
			}
		}
		return keyComparisons(t, ts.PerfContext())
	}
	if n := reads(1); n != 0 {
		t.Fatalf("perf level 1: %d key comparisons counted, want none", n)
	}
	n := reads(2)
	if n == 0 {
		t.Fatal("perf level 2: no key comparisons counted")
	}
	ts.StartThread(1)
	if n := keyComparisons(t, ts.PerfContext()); n != 0 {
		t.Fatalf("StartThread left %d comparisons in the perf context", n)
	}
}

// keyComparisons reads user_key_comparison_count, the first counter of
// RocksDB's perf context text.
func keyComparisons(t *testing.T, report string) uint64 {
	t.Helper()
	var n uint64
	if _, err := fmt.Sscanf(report, "user_key_comparison_count = %d,", &n); err != nil {
		t.Fatalf("perf context %.80q: %v", report, err)
	}
	return n
}
