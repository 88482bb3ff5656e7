package memtablerepbench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
	_ "github.com/godbbench/godbbench/memtable/badgerskl"
	_ "github.com/godbbench/godbbench/memtable/cspp"
	_ "github.com/godbbench/godbbench/memtable/hashrep"
	_ "github.com/godbbench/godbbench/memtable/offsetskiplist"
	_ "github.com/godbbench/godbbench/memtable/skiplist"
	_ "github.com/godbbench/godbbench/memtable/vector"
)

// TestBenchRepNames checks that the C++ tool's rep names get their flags.
func TestBenchRepNames(t *testing.T) {
	cases := []struct {
		args []string
		want memtable.Config
	}{
		{[]string{"--memtablerep=vector", "--vectorrep_count=100"}, memtable.Config{Param: 100}},
		{[]string{"--memtablerep=hashskiplist", "--bucket_count=16", "--prefix_length=4", "--hashskiplist_height=6", "--hashskiplist_branching_factor=2"},
			memtable.Config{Param: 16, PrefixSize: 4, SkipListHeight: 6, SkipListBranching: 2}},
		{[]string{"--memtablerep=hashlinklist", "--bucket_count=9", "--threshold_use_skiplist=3"}, memtable.Config{Param: 9, PrefixSize: 8, ListEntries: 3}},
		{[]string{"--memtablerep=hash_linkedlist:5"}, memtable.Config{Param: 5}},
	}
	for _, c := range cases {
		f, code, done := parseFlags(c.args, &bytes.Buffer{}, &bytes.Buffer{})
		if done {
			t.Fatalf("parseFlags(%q) exited with %d", c.args, code)
		}
		_, cfg, err := lookupRep(f)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if cfg.Param != c.want.Param || cfg.PrefixSize != c.want.PrefixSize ||
			cfg.SkipListHeight != c.want.SkipListHeight || cfg.SkipListBranching != c.want.SkipListBranching ||
			cfg.ListEntries != c.want.ListEntries {
			t.Errorf("%v: config %+v, want %+v", c.args, cfg, c.want)
		}
	}
}

// TestBenchNewReps runs the three RocksDB reps end to end: every key read
// back after fillrandom, and a full scan after it.
func TestBenchNewReps(t *testing.T) {
	for _, rep := range []string{"vector", "hashskiplist", "hashlinklist"} {
		out, errs, code := runArgs(t, "--memtablerep="+rep, "--num_operations=3000", "--bucket_count=64",
			"--benchmarks=fillrandom,readrandom,readseq", "--num_scans=1")
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", rep, code, errs)
		}
		if !strings.Contains(out, "read hit%: 100\n") || !strings.Contains(out, "Running readseq\n") {
			t.Errorf("%s: output\n%s", rep, out)
		}
	}
}

// TestRepHelpNamesRun: every name --memtablerep's help lists builds a
// rep that takes an entry, so the help lists no rep that fails.
func TestRepHelpNamesRun(t *testing.T) {
	fs, _ := newFlagSet("memtablerep_bench")
	help := fs.Lookup("memtablerep").Help
	_, registered, _ := strings.Cut(help, "a registered name: ")
	names := append([]string{"skiplist", "vector", "hashskiplist", "hashlinklist"}, strings.Split(registered, ", ")...)
	for _, name := range names {
		if !strings.Contains(help, name) {
			t.Fatalf("help %q lacks %s", help, name)
		}
		f, code, done := parseFlags([]string{"--memtablerep=" + name}, &bytes.Buffer{}, &bytes.Buffer{})
		if done {
			t.Fatalf("%s: parseFlags exited with %d", name, code)
		}
		factory, cfg, err := lookupRep(f)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if cfg.PrefixSize == 0 {
			cfg.PrefixSize = 8
		}
		rep, err := factory(cfg)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := rep.Add(1, base.KindSet, []byte("key-00000001"), []byte("v")); err != nil {
			t.Errorf("%s: Add: %v", name, err)
		}
	}
}
