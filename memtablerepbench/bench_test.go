package memtablerepbench

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/cxxrand"
	"github.com/godbbench/godbbench/internal/golden"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/offsetskiplist"
	"github.com/godbbench/godbbench/memtable/skiplist"
)

// fixedUsage wraps a rep so its memory line does not depend on random node
// heights.
type fixedUsage struct{ memtable.Rep }

func (r fixedUsage) ApproximateMemoryUsage() uint64 { return uint64(r.Len()) * 100 }

// pacedWriter sleeps before every Add. seqreadwrite's readers scan a list
// the writer keeps extending and finish only when a scan reaches the end;
// on a loaded machine a writer running flat out can postpone that until
// its arena is full (seen in CI: 17.9M entries in 69 s). A sleeping writer
// lets the scans win, so the test checks the output, not the scheduler.
type pacedWriter struct{ fixedUsage }

func (r pacedWriter) Add(seq uint64, kind base.Kind, key, value []byte) error {
	time.Sleep(20 * time.Microsecond)
	return r.fixedUsage.Add(seq, kind, key, value)
}

func init() {
	memtable.Register([]string{"golden_offset_paced"}, func(cfg memtable.Config) (memtable.Rep, error) {
		return pacedWriter{fixedUsage{offsetskiplist.New(cfg.MemCap)}}, nil
	})
	memtable.Register([]string{"golden_skiplist"}, func(memtable.Config) (memtable.Rep, error) {
		return fixedUsage{skiplist.New()}, nil
	})
	memtable.Register([]string{"golden_offset"}, func(cfg memtable.Config) (memtable.Rep, error) {
		return fixedUsage{offsetskiplist.New(cfg.MemCap)}, nil
	})
}

// fakeClock advances 1234567 ns per reading, so every benchmark lasts
// exactly 1234 us.
func fakeClock() Clock {
	var now int64
	return func() int64 {
		now += 1234567
		return now
	}
}

func runArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	f, code, done := parseFlags(args, &bytes.Buffer{}, &bytes.Buffer{})
	if done {
		t.Fatalf("parseFlags(%q) exited with %d", args, code)
	}
	var out, errb bytes.Buffer
	code = Run(f, fakeClock(), &out, &errb)
	return out.String(), errb.String(), code
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func TestGoldenOutput(t *testing.T) {
	for _, rep := range []string{"golden_skiplist", `golden_offset:{"mem_cap":"64M"}`} {
		out, errs, code := runArgs(t, "--memtablerep="+rep, "--num_operations=5000", "--item_size=10",
			"--num_threads=2", "--num_scans=3",
			"--benchmarks=fillrandom,readrandom,readseq,nosuch,fillseq,readrandom,")
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", rep, code, errs)
		}
		checkGolden(t, "golden.txt", out)
	}
}

// TestReadWrite checks the structure of readwrite and seqreadwrite output;
// how many writes the writer makes before the readers finish varies, so
// the numbers cannot be golden.
func TestReadWrite(t *testing.T) {
	// seqreadwrite's readers scan a list the writer keeps growing, so it
	// ends only when the scans outrun the writer (db_bench's tool has the
	// same property); one scan per reader and a paced writer keep that
	// quick even on a busy machine.
	out, errs, code := runArgs(t, "--memtablerep=golden_offset", "--num_operations=60", "--num_threads=3",
		"--benchmarks=readwrite")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	out2, errs, code := runArgs(t, "--memtablerep=golden_offset_paced", "--num_operations=60", "--num_threads=3",
		"--num_scans=1", "--benchmarks=seqreadwrite")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	out += out2
	// Both benchmarks print the same block; the figures vary, the layout not.
	block := `Number of threads: 3
Elapsed time: 1234 us
(Total bytes written: .* MiB
Write throughput: .* MiB/s
write us/op: 20.5667
)?(Total bytes read: .* MiB
Read throughput: .* MiB/s
read us/op: 41.1333
)?ApproximateMemoryUsage: \d+ bytes \(.* MiB\), arena: \d+ bytes \(.* MiB\)
`
	pattern := regexp.MustCompile("^Running readwrite\n" + block + "Running seqreadwrite\n" + block + "$")
	if !pattern.MatchString(out) {
		t.Fatalf("unexpected output:\n%s", out)
	}
}

func TestSingleThreadReadWrite(t *testing.T) {
	// With one thread readwrite has no readers, so the writer stops at once
	// and neither write nor read lines are printed.
	out, _, code := runArgs(t, "--memtablerep=golden_skiplist", "--num_operations=100", "--benchmarks=readwrite")
	if code != 0 {
		t.Fatal(code)
	}
	checkGolden(t, "readwrite_1thread.txt", out)
}

func TestErrors(t *testing.T) {
	cases := []struct {
		args       []string
		stdout     string
		stderrPart string
	}{
		{[]string{"--memtablerep=cuckoo"}, "Unknown memtablerep: Invalid argument: cuckoo hash memtable is not supported anymore.: cuckoo\n", ""},
		{[]string{"--memtablerep=nosuch"}, "Unknown memtablerep: Not implemented: Could not load MemTableRepFactory: nosuch\n", ""},
		{[]string{"--benchmarks=readrandom"}, "", "readrandom needs a memtable"},
		{[]string{"--benchmarks=readseq"}, "", "readseq needs a memtable"},
		{[]string{`--memtablerep=offset_skiplist:{"mem_cap":"64K"}`, "--benchmarks=fillseq", "--num_operations=100000"}, "Running fillseq\n", "arena full"},
	}
	for _, c := range cases {
		out, errs, code := runArgs(t, append(c.args, "--num_operations=1000")[:len(c.args)]...)
		if code != 1 {
			t.Errorf("%q: exit %d, want 1", c.args, code)
		}
		if out != c.stdout {
			t.Errorf("%q: stdout %q, want %q", c.args, out, c.stdout)
		}
		if !strings.Contains(errs, c.stderrPart) {
			t.Errorf("%q: stderr %q lacks %q", c.args, errs, c.stderrPart)
		}
	}
}

func TestFlagErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"--no_such_flag=1"}, &out, &errb); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errb.String(), "ERROR: unknown command line flag 'no_such_flag'") {
		t.Fatalf("stderr %q", errb.String())
	}
	f, _, done := parseFlags(nil, &out, &errb)
	if done || f.Benchmarks != "fillrandom" || f.Memtablerep != "skiplist" || f.NumOperations != 1000000 ||
		f.NumThreads != 1 || f.NumScans != 10 || f.ItemSize != 100 || f.Seed != 0 || f.PrefixLength != 8 ||
		f.WriteBufferSize != 256 || f.BucketCount != 1000000 {
		t.Fatalf("defaults: %+v", f)
	}
}

// TestKeyStreams checks the three key orders against the generators.
func TestKeyStreams(t *testing.T) {
	seq := newKeyStream(newKeyGenerator(cxxrand.NewMT64(0), keysSequential, 1000, 0))
	for i := uint64(0); i < 600; i++ {
		if k := seq.next(); k != i {
			t.Fatalf("sequential key %d = %d", i, k)
		}
	}
	rng := cxxrand.NewMT64(42)
	random := newKeyStream(newKeyGenerator(cxxrand.NewMT64(42), keysRandom, 1000, 42))
	for i := 0; i < 600; i++ {
		if k, want := random.next(), rng.Next()%1000; k != want {
			t.Fatalf("random key %d = %d, want %d", i, k, want)
		}
	}
	uniq := newKeyStream(newKeyGenerator(cxxrand.NewMT64(0), keysUniqueRandom, 1000, 7))
	seen := make(map[uint64]bool)
	for i := 0; i < 1000; i++ {
		seen[uniq.next()] = true
	}
	if len(seen) != 1000 {
		t.Fatalf("unique random keys: %d distinct of 1000", len(seen))
	}
}

func TestValueGenerator(t *testing.T) {
	g := valueGenerator{data: []byte("0123456789")}
	var got []string
	for i := 0; i < 4; i++ {
		got = append(got, string(g.generate(4)))
	}
	if strings.Join(got, ",") != "0123,4567,0123,4567" {
		t.Fatalf("values %v", got)
	}
}

func TestZeroOperations(t *testing.T) {
	out, errs, code := runArgs(t, "--memtablerep=golden_skiplist", "--num_operations=0", "--num_threads=2",
		"--benchmarks=fillrandom,readrandom,readseq")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	checkGolden(t, "zero_operations.txt", out)
}

func TestReverseReadseq(t *testing.T) {
	args := []string{"--memtablerep=golden_offset", "--num_operations=3000", "--num_scans=2", "--benchmarks=fillrandom,readseq"}
	fwd, _, c1 := runArgs(t, args...)
	rev, _, c2 := runArgs(t, append(args, "--reverse")...)
	if c1 != 0 || c2 != 0 || fwd != rev || !strings.Contains(fwd, "Total bytes read: 0.669479 MiB") {
		t.Fatalf("forward and reverse scans differ or read the wrong amount:\n%s\n%s", fwd, rev)
	}
}
