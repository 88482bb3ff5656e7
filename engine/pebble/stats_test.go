package pebble

import (
	"os"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// TestStatsMatchRocksDBLayout compares the RocksDB-layout part of
// rocksdb.stats, line by line and field by field, with RocksDB 7.8.3's.
func TestStatsMatchRocksDBLayout(t *testing.T) {
	want, err := os.ReadFile("../../internal/rocksfmt/testdata/rocksdb-7.8.3-fillrandom.txt")
	if err != nil {
		t.Fatal(err)
	}
	db := fillAndCompact(t)
	defer db.Close()
	for range 2 { // the second dump has an interval of its own
		s, _ := db.Property("rocksdb.stats")
		i := strings.Index(s, "\n** Compaction Stats [default] **\n")
		if i < 0 {
			t.Fatalf("no compaction stats in:\n%s", s)
		}
		for _, d := range rocksfmt.LayoutDiff(s[i:], string(want)) {
			t.Error(d)
		}
		if t.Failed() {
			t.Fatalf("rocksdb.stats:\n%s", s[i:])
		}
	}
}
