package native

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// TestStatsDumpPeriod: RocksDB's 600 s unless stats_dump_period_sec says
// otherwise; 0 turns the dumps off.
func TestStatsDumpPeriod(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 600 * time.Second, "0": 0, "5": 5 * time.Second} {
		o := options.Default()
		if v != "" {
			if err := options.ApplyFlag(o, "stats_dump_period_sec", v, true); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := statsDumpPeriod(o); err != nil || got != want {
			t.Errorf("stats_dump_period_sec %q: %v, %v; want %v", v, got, err, want)
		}
	}
}

// TestDumpStatsToLOG: a dump appends RocksDB's DumpStats text to LOG: the
// banner, the DB stats, the compaction stats and the STATISTICS block.
func TestDumpStatsToLOG(t *testing.T) {
	dir := t.TempDir()
	db := openWith(t, func(o *options.Options) { o.Statistics = true })(dir).(*DB)
	defer db.Close()
	if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "LOG")
	db.dumpStats(log)
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	last := -1
	for _, want := range []string{
		" ------- DUMPING STATS -------\n",
		"** DB Stats **",
		"** Compaction Stats [default] **",
		" STATISTICS:\n rocksdb.block.cache.miss COUNT : 0\n",
		"rocksdb.number.keys.written COUNT : 1\n",
	} {
		i := strings.Index(text, want)
		if i < 0 || i < last {
			t.Fatalf("LOG lacks %q after what came before:\n%s", want, text)
		}
		last = i
	}
	if !strings.HasPrefix(text, time.Now().Format("2006/01/02")) {
		t.Errorf("LOG does not start with its version line's date:\n%.200s", text)
	}
}

// TestStatsLevels: --stats_level 1 counts tickers but no histograms or
// timers; 0 counts nothing, yet the block still lists every name.
func TestStatsLevels(t *testing.T) {
	for level, want := range map[int][2]string{
		0: {"rocksdb.number.keys.read COUNT : 0\n", "rocksdb.db.get.micros P50 : 0.000000 P95 : 0.000000 P99 : 0.000000 P100 : 0.000000 COUNT : 0 SUM : 0\n"},
		1: {"rocksdb.number.keys.read COUNT : 1\n", "rocksdb.db.get.micros P50 : 0.000000 P95 : 0.000000 P99 : 0.000000 P100 : 0.000000 COUNT : 0 SUM : 0\n"},
		2: {"rocksdb.number.keys.read COUNT : 1\n", "rocksdb.bytes.per.read P50 : 1.000000 P95 : 1.000000 P99 : 1.000000 P100 : 1.000000 COUNT : 1 SUM : 1\n"},
	} {
		db := openWith(t, func(o *options.Options) { o.Statistics, o.StatsLevel = true, level })(t.TempDir())
		if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Get([]byte("k"), nil); err != nil {
			t.Fatal(err)
		}
		block, ok := db.Property(engine.StatisticsProperty)
		db.Close()
		if !ok {
			t.Fatalf("level %d: no STATISTICS block", level)
		}
		for _, line := range want {
			if !strings.Contains(block, line) {
				t.Errorf("level %d: the block lacks %q", level, line)
			}
		}
	}
}

// TestNoStatsDumpsReadOnly: a read-only DB changes no file, so it starts
// no dumps into LOG; a writable one does.
func TestNoStatsDumpsReadOnly(t *testing.T) {
	dir := t.TempDir()
	db := openWith(t, func(*options.Options) {})(dir).(*DB)
	if db.dumper == nil {
		t.Error("a writable DB started no stats dumps")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro := openWith(t, func(o *options.Options) { o.ReadOnly = true })(dir).(*DB)
	defer ro.Close()
	if ro.dumper != nil {
		t.Error("a read-only DB dumps stats into LOG")
	}
}
