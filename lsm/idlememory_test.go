package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/hugemem"
)

// TestCompactReleasesKeptRegions checks that a manual compaction leaves no
// memtable region waiting in a pool: the flushes before it hand their
// memtables' regions to the pools, and Compact frees them.
func TestCompactReleasesKeptRegions(t *testing.T) {
	o := testOptions()
	o.WriteBufferSize = 32 << 20 // skip_list takes pooled 2 MiB chunks from 32 MiB up
	db := mustOpen(t, t.TempDir(), o)
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
