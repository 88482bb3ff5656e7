package dbbench

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// propDB answers Property from a map; no other method is called.
type propDB struct {
	engine.DB
	props map[string]string
}

func (p propDB) Property(name string) (string, bool) {
	v, ok := p.props[name]
	return v, ok
}

func TestIntervalStatsDump(t *testing.T) {
	var errBuf bytes.Buffer
	r := &runner{errw: &lockedWriter{w: &errBuf}}
	r.db = propDB{props: map[string]string{
		"rocksdb.stats":                   "\n** DB Stats **\nUptime(secs): 1.0 total\n",
		"rocksdb.num-running-compactions": "0",
		"rocksdb.num-running-flushes":     "1",
	}}
	r.printIntervalStats(r.db)
	want := "\n** DB Stats **\nUptime(secs): 1.0 total\nnum-running-compactions: 0\nnum-running-flushes: 1\n\n"
	if errBuf.String() != want {
		t.Fatalf("got  %q\nwant %q", errBuf.String(), want)
	}
	errBuf.Reset()
	r.db = propDB{}
	r.printIntervalStats(r.db)
	if errBuf.Len() != 0 {
		t.Fatalf("an engine without the properties printed %q", errBuf.String())
	}
}

// TestIntervalTableProperties: --show_table_properties adds the levels
// whose aggregated table properties hold entries to the interval dump, as
// db_bench does, and an engine without the property is said once.
func TestIntervalTableProperties(t *testing.T) {
	var errBuf bytes.Buffer
	r := &runner{errw: &lockedWriter{w: &errBuf}, opts: &options.Options{NumLevels: 3}, opener: nullOpener{}}
	r.cfg.showTableProperties = true
	r.db = propDB{props: map[string]string{
		"rocksdb.aggregated-table-properties-at-level0": "# data blocks=0; # entries=0; raw key size=0",
		"rocksdb.aggregated-table-properties-at-level1": "# data blocks=3; # entries=120; raw key size=1920",
		"rocksdb.aggregated-table-properties-at-level2": "# data blocks=1; # entries=7; raw key size=112",
	}}
	r.printIntervalStats(r.db)
	want := "Level[1]: # data blocks=3; # entries=120; raw key size=1920\nLevel[2]: # data blocks=1; # entries=7; raw key size=112\n"
	if errBuf.String() != want {
		t.Fatalf("got  %q\nwant %q", errBuf.String(), want)
	}
	errBuf.Reset()
	r.db = propDB{}
	r.printIntervalStats(r.db)
	r.printIntervalStats(r.db)
	if got := errBuf.String(); got != "WARNING: --show_table_properties: the null engine has no rocksdb.aggregated-table-properties-at-level<N> property\n" {
		t.Fatalf("an engine without the property: %q", got)
	}
}

// nullOpener names an engine for warnings; nothing else is called.
type nullOpener struct{ engine.Opener }

func (nullOpener) Info() engine.Info { return engine.Info{Name: "null"} }

func TestPropertyDumps(t *testing.T) {
	var out bytes.Buffer
	r := &runner{out: bufio.NewWriter(&out)}
	r.db = propDB{props: map[string]string{
		"rocksdb.levelstats":                "Level Files Size(MB)\n--------------------\n  0        1        0\n",
		"rocksdb.num-immutable-mem-table":   "0",
		"rocksdb.cur-size-active-mem-table": "2048",
	}}
	r.printProperty("rocksdb.levelstats")
	r.printProperty("rocksdb.sstables")
	r.printMemStats()
	want := "\nLevel Files Size(MB)\n--------------------\n  0        1        0\n\n" +
		"\n(failed)\n" +
		"rocksdb.num-immutable-mem-table: 0\n" +
		"rocksdb.cur-size-active-mem-table: 2048\n" +
		"rocksdb.cur-size-all-mem-tables: (failed)\n" +
		"rocksdb.size-all-mem-tables: (failed)\n" +
		"rocksdb.num-entries-active-mem-table: (failed)\n" +
		"rocksdb.num-entries-imm-mem-tables: (failed)\n"
	if out.String() != want {
		t.Fatalf("got  %q\nwant %q", out.String(), want)
	}
}
