package memtablerepbench

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestFlagDefaultsAndParse(t *testing.T) {
	var out, errb bytes.Buffer
	f, code, done := parseFlags([]string{"--num_threads=2", "--benchmarks=fillseq,readrandom", "--reverse"}, &out, &errb)
	if done {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := Flags{Benchmarks: "fillseq,readrandom", Memtablerep: "skiplist", BucketCount: 1000000,
		HashskiplistHeight: 4, HashskiplistBranchingFactor: 4, HugePageTlbSize: 0, BucketEntriesLoggingThreshold: 4096,
		IfLogBucketDistWhenFlash: true, ThresholdUseSkiplist: 256, WriteBufferSize: 256, NumThreads: 2,
		NumOperations: 1000000, NumScans: 10, ItemSize: 100, PrefixLength: 8, VectorrepCount: 0, Seed: 0, Reverse: true}
	if *f != want {
		t.Fatalf("got %+v", *f)
	}
}

func TestUnknownFlag(t *testing.T) {
	var errb bytes.Buffer
	_, code, done := parseFlags([]string{"--num=5"}, io.Discard, &errb)
	if !done || code != 1 || errb.String() != "ERROR: unknown command line flag 'num'\n" {
		t.Fatalf("done %v code %d stderr %q", done, code, errb.String())
	}
}

func TestHelpListsFlagsUnderTheCppFile(t *testing.T) {
	var out, errb bytes.Buffer
	_, _, done := parseFlags([]string{"--helpfull"}, &out, &errb)
	if !done {
		t.Fatal("--helpfull did not stop the program")
	}
	text := out.String() + errb.String()
	for _, s := range []string{"Flags from " + sourceFile, "-num_operations", "-use_concurrent_insert"} {
		if !bytes.Contains([]byte(text), []byte(s)) {
			t.Errorf("help lacks %q:\n%s", s, text)
		}
	}
}

// TestFlagTableCoversFlags: every field of Flags has exactly one row of
// the flag table, and every row registers (its default suits its type).
func TestFlagTableCoversFlags(t *testing.T) {
	fields := map[string]bool{}
	typ := reflect.TypeOf(Flags{})
	for i := range typ.NumField() {
		fields[typ.Field(i).Name] = true
	}
	for _, d := range flagTable {
		if !fields[fieldName(d.name)] {
			t.Errorf("flag %s: no field %s, or a second row for it", d.name, fieldName(d.name))
		}
		delete(fields, fieldName(d.name))
		if d.origin == "" || d.use == "" || d.help == "" {
			t.Errorf("flag %s: origin %q, use %q, help %q: none may be empty", d.name, d.origin, d.use, d.help)
		}
	}
	for name := range fields {
		t.Errorf("field %s has no row in the flag table", name)
	}
	fs, _ := newFlagSet("memtablerep_bench")
	for _, d := range flagTable {
		if f := fs.Lookup(d.name); f == nil || f.Default != d.def {
			t.Errorf("flag %s: registered as %+v, want default %q", d.name, f, d.def)
		}
	}
}

// TestFlagTableOwnRepNames: --memtablerep's help names every one of the
// C++ tool's rep names this package resolves itself.
func TestFlagTableOwnRepNames(t *testing.T) {
	fs, _ := newFlagSet("memtablerep_bench")
	help := fs.Lookup("memtablerep").Help
	for name := range benchRepNames {
		if !strings.Contains(help, name+",") && !strings.Contains(help, name+" ") {
			t.Errorf("--memtablerep's help %q lacks %s", help, name)
		}
	}
}
