package native

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/rocksfmt"
	"github.com/godbbench/godbbench/options"
)

// openSmall opens a DB with small memtables and levels, so a few thousand
// writes flush and compact.
func openSmall(t *testing.T) *DB {
	t.Helper()
	d, err := Opener{}.Open(t.TempDir(), options.Small(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	db := d.(*DB)
	// Closed at the end unless the test closed it (a second Close is an
	// invariant violation in race and invariants builds).
	t.Cleanup(func() {
		if _, err := db.d.Metrics(); err == nil {
			db.Close()
		}
	})
	return db
}

func fillKeys(t *testing.T, db *DB, n int, key func(i int) string, value string) {
	t.Helper()
	for i := range n {
		if err := db.Put([]byte(key(i)), []byte(value), nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStatsLayout checks the lines tools/benchmark.sh parses, by awk field.
func TestStatsLayout(t *testing.T) {
	db := openSmall(t)
	fillKeys(t, db, 3000, func(i int) string { return fmt.Sprintf("key%06d", i) }, "some value bytes")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	s, ok := db.Property("rocksdb.stats")
	if !ok {
		t.Fatal("no rocksdb.stats")
	}
	lines := map[string][]string{}
	for _, l := range strings.Split(s, "\n") {
		for _, p := range []string{" Sum", "Uptime(secs)", "Cumulative writes", "Cumulative compaction", "Stalls(count):", "Flush(GB)", "Cumulative stall", "Blob file count:"} {
			if strings.HasPrefix(l, p) {
				lines[p] = strings.Fields(l)
			}
		}
	}
	if f := lines[" Sum"]; len(f) != 22 || f[0] != "Sum" {
		t.Fatalf("Sum row has %d fields: %q", len(f), f)
	}
	if f := lines["Stalls(count):"]; len(f) < 20 || f[2] != "level0_slowdown," || f[18] != "memtable_compaction," {
		t.Fatalf("Stalls line: %q", f)
	}
	if f := lines["Cumulative writes"]; len(f) < 15 || f[2] != "3000" && f[2] != "3K" {
		t.Fatalf("Cumulative writes line: %q", f)
	}
	if f := lines["Cumulative compaction"]; len(f) < 6 || f[3] != "GB" || f[6] != "MB/s" {
		t.Fatalf("Cumulative compaction line: %q", f)
	}
	if f := lines["Flush(GB)"]; len(f) < 3 || !strings.HasSuffix(f[2], ",") {
		t.Fatalf("Flush line: %q", f)
	}
	if f := lines["Cumulative stall"]; len(f) < 5 || f[5] != "percent" {
		t.Fatalf("Cumulative stall line: %q", f)
	}
	if lines["Uptime(secs)"] == nil || lines["Blob file count:"] == nil {
		t.Fatalf("missing lines in:\n%s", s)
	}
	ls, _ := db.Property("rocksdb.levelstats")
	if !strings.HasPrefix(ls, "Level Files Size(MB)\n--------------------\n  0 ") {
		t.Fatalf("levelstats:\n%s", ls)
	}
}

// TestStatsMatchRocksDBLayout compares rocksdb.stats, line by line and field
// by field, with RocksDB 7.8.3's.
func TestStatsMatchRocksDBLayout(t *testing.T) {
	want, err := os.ReadFile("../../internal/rocksfmt/testdata/rocksdb-7.8.3-fillrandom.txt")
	if err != nil {
		t.Fatal(err)
	}
	db := openSmall(t)
	fillKeys(t, db, 20000, func(i int) string { return fmt.Sprintf("key%06d", i*7919%20000) }, "some value bytes, some value bytes")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second dump has an interval of its own
		s, _ := db.Property("rocksdb.stats")
		for _, d := range rocksfmt.LayoutDiff(s, string(want)) {
			t.Error(d)
		}
		if t.Failed() {
			t.Fatalf("rocksdb.stats:\n%s", s)
		}
	}
}

// TestStatsAfterClose: a closed DB answers no property.
func TestStatsAfterClose(t *testing.T) {
	db := openSmall(t)
	db.Close()
	for _, p := range []string{"rocksdb.stats", "rocksdb.sstables", "rocksdb.levelstats", "rocksdb.num-files-at-level0"} {
		if v, ok := db.Property(p); ok {
			t.Errorf("%s after Close: %q", p, v)
		}
	}
}
