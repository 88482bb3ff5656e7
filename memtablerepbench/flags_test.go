package memtablerepbench

import (
	"bytes"
	"io"
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
