package native

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
