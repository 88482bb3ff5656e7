package dbbench

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/godbbench/godbbench/engine"
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
	r.printIntervalStats()
	want := "\n** DB Stats **\nUptime(secs): 1.0 total\nnum-running-compactions: 0\nnum-running-flushes: 1\n\n"
	if errBuf.String() != want {
		t.Fatalf("got  %q\nwant %q", errBuf.String(), want)
	}
	errBuf.Reset()
	r.db = propDB{}
	r.printIntervalStats()
	if errBuf.Len() != 0 {
		t.Fatalf("an engine without the properties printed %q", errBuf.String())
	}
}

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
