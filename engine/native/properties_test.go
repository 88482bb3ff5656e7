package native

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/golden"
	"github.com/godbbench/godbbench/options"
)

// scalarProperties are the one-number properties the engine answers, plus
// names it must refuse.
var scalarProperties = []string{
	"rocksdb.num-immutable-mem-table", "rocksdb.num-immutable-mem-table-flushed",
	"rocksdb.cur-size-active-mem-table", "rocksdb.cur-size-all-mem-tables", "rocksdb.size-all-mem-tables",
	"rocksdb.num-entries-active-mem-table", "rocksdb.num-entries-imm-mem-tables",
	"rocksdb.mem-table-flush-pending", "rocksdb.num-running-flushes", "rocksdb.compaction-pending",
	"rocksdb.num-running-compactions", "rocksdb.background-errors", "rocksdb.estimate-num-keys",
	"rocksdb.total-sst-files-size", "rocksdb.live-sst-files-size", "rocksdb.block-cache-capacity",
	"rocksdb.block-cache-usage", "rocksdb.base-level",
	"rocksdb.num-files-at-level0", "rocksdb.num-files-at-level1", "rocksdb.num-files-at-level2",
	"rocksdb.num-files-at-level3", "rocksdb.num-files-at-level6", "rocksdb.num-files-at-level7",
	"rocksdb.num-files-at-level-1", "rocksdb.num-files-at-levelx", "rocksdb.no-such-property",
}

// timedField matches the whitespace and text of a level-row column whose
// value depends on elapsed time: Rd(MB/s), Wr(MB/s), Comp(sec),
// CompMergeCPU(sec) and Avg(sec), fields 12-15 and 17 of the 22.
var timedColumns = map[int]bool{12: true, 13: true, 14: true, 15: true, 17: true}

var (
	levelRow   = regexp.MustCompile(`^ *(L[0-9]+|Sum|Int|Bottom|Low|High|User) `)
	fieldRun   = regexp.MustCompile(`\s*\S+`)
	rate       = regexp.MustCompile(`[0-9.]+ MB/s`)
	uptime     = regexp.MustCompile(`^Uptime\(secs\): [0-9.]+ total, [0-9.]+ interval$`)
	compactSec = regexp.MustCompile(`, [0-9.]+ seconds$`)
)

// maskTimes replaces the figures of a rocksdb.stats text that depend on the
// clock, keeping every column's width, so that the rest can be compared byte
// for byte.
func maskTimes(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		switch {
		case levelRow.MatchString(l):
			n := 0
			lines[i] = fieldRun.ReplaceAllStringFunc(l, func(f string) string {
				n++
				if !timedColumns[n-1] {
					return f
				}
				return strings.Repeat(" ", len(f)-1) + "#"
			})
		case uptime.MatchString(l):
			lines[i] = "Uptime(secs): # total, # interval"
		default:
			l = rate.ReplaceAllString(l, "# MB/s")
			lines[i] = compactSec.ReplaceAllString(l, ", # seconds")
		}
	}
	return strings.Join(lines, "\n")
}

// TestPropertiesGolden builds a DB with tables in L0, L1, L2 and L3 and a
// memtable, and checks every property's text against testdata, clock-
// dependent figures masked: rocksdb.stats before and after more writes (the
// interval figures) and after ResetStats, levelstats, sstables and the
// one-number properties.
func TestPropertiesGolden(t *testing.T) {
	o := options.Default()
	o.WriteBufferSize = 4 << 20
	o.TargetFileSizeBase = 32 << 10
	o.MaxBytesForLevelBase = 64 << 10
	o.DisableAutoCompactions = true
	o.CompressionType = "none"
	o.CacheSize = 1 << 20
	db, err := Opener{}.Open(t.TempDir(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fill := func(prefix string, n int) {
		t.Helper()
		for i := range n {
			if err := db.Put(fmt.Appendf(nil, "%s%05d", prefix, i), fmt.Appendf(nil, "value %d of %s, padded to some length", i, prefix), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	compact := func(prefix string, target int) {
		t.Helper()
		if err := db.Compact([]byte(prefix), []byte(prefix+"~"), target); err != nil {
			t.Fatal(err)
		}
	}
	flush := func() {
		t.Helper()
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	dump := func(title string, names ...string) {
		for _, name := range names {
			v, ok := db.Property(name)
			if strings.HasSuffix(title, "stats") {
				v = maskTimes(v)
			}
			fmt.Fprintf(&out, "=== %s %s %v\n%s\n", title, name, ok, v)
		}
	}
	fill("a", 3000)
	compact("a", 3)
	fill("b", 2000)
	compact("b", 2)
	fill("c", 1000)
	compact("c", 1)
	fill("d", 500)
	flush()
	fill("e", 500)
	flush()
	for i := 0; i < 3000; i += 3 {
		if err := db.Delete(fmt.Appendf(nil, "a%05d", i), nil); err != nil {
			t.Fatal(err)
		}
	}
	fill("f", 100)
	for _, k := range []string{"a00001", "b00002", "c00003", "d00004", "e00005", "zzz"} {
		if _, err := db.Get([]byte(k), func([]byte) {}); err != nil {
			t.Fatal(err)
		}
	}
	dump("first stats", "rocksdb.stats")
	dump("tables", "rocksdb.levelstats", "rocksdb.sstables")
	dump("scalars", scalarProperties...)
	fill("g", 1000)
	flush()
	dump("second stats", "rocksdb.stats")
	if err := db.ResetStats(); err != nil {
		t.Fatal(err)
	}
	dump("after reset stats", "rocksdb.stats")
	golden.Check(t, "testdata/properties.txt", out.String())
}

var _ engine.DB = (*DB)(nil)
