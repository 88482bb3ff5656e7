package dbbench

import (
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/internal/gflags"
)

// TestRegistryKnowsDefaultList checks that every benchmark of db_bench's
// default --benchmarks list is registered, built or not, so the default
// run never meets an unknown name.
func TestRegistryKnowsDefaultList(t *testing.T) {
	fs := gflags.NewFlagSet("db_bench", Version)
	flags.Register(fs)
	for _, name := range strings.Split(fs.Lookup("benchmarks").Value(), ",") {
		if name == "" {
			continue
		}
		if _, ok := benchmarks[name]; !ok {
			t.Errorf("default benchmark %q is not registered", name)
		}
	}
}

// TestRegistryEntriesWellFormed checks each entry: a benchmark is either
// not built, a meta operation, or a body run on threads, and only bodies
// open a fresh DB or add threads.
func TestRegistryEntriesWellFormed(t *testing.T) {
	built := 0
	for name, d := range benchmarks {
		kinds := 0
		for _, k := range []bool{d.notBuilt, d.meta != nil, d.fn != nil} {
			if k {
				kinds++
			}
		}
		if kinds != 1 {
			t.Errorf("%s: is %d of not built, meta, body; want exactly one", name, kinds)
		}
		if d.fn == nil && (d.fresh || d.extraThreads != 0) {
			t.Errorf("%s: fresh or extra threads without a body", name)
		}
		if !d.notBuilt {
			built++
		}
	}
	if built < 30 {
		t.Errorf("only %d benchmarks built", built)
	}
}

// TestBenchmarkDocs: every registered benchmark has its line, and a
// db_bench refusal with several databases belongs to a benchmark that does
// not run on them.
func TestBenchmarkDocs(t *testing.T) {
	for name, def := range benchmarks {
		if def.doc == "" {
			t.Errorf("benchmark %s has no doc line", name)
		}
		if def.severalDBs && def.severalDBRefusal != "" {
			t.Errorf("benchmark %s both runs on several databases and is refused on them", name)
		}
	}
}
