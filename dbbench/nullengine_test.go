package dbbench_test

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// nullEngine stores nothing and finds every key with a fixed value: it
// isolates the driver's own per-operation cost.
type nullEngine struct{}

var nullValue = bytes.Repeat([]byte{'v'}, 100)

func (nullEngine) Info() engine.Info {
	return engine.Info{Name: "null", Version: "0", VersionLine: "Null:       version 0"}
}
func (nullEngine) Open(string, *options.Options, io.Writer) (engine.DB, error) { return nullDB{}, nil }
func (nullEngine) Destroy(string, *options.Options) error                      { return nil }

type nullDB struct{}

func (nullDB) Put(k, v []byte, _ *engine.WriteOptions) error       { return nil }
func (nullDB) Delete(k []byte, _ *engine.WriteOptions) error       { return nil }
func (nullDB) Merge(k, v []byte, _ *engine.WriteOptions) error     { return nil }
func (nullDB) SingleDelete(k []byte, _ *engine.WriteOptions) error { return nil }
func (nullDB) DeleteRange(s, e []byte, _ *engine.WriteOptions) error {
	return nil
}
func (nullDB) NewBatch() engine.Batch { return &nullBatch{} }
func (nullDB) Apply(engine.Batch, *engine.WriteOptions) error {
	return nil
}
func (nullDB) Get(k []byte, fn func([]byte)) (bool, error) { fn(nullValue); return true, nil }
func (nullDB) GetMergeOperands(k []byte, fn func([]byte)) (bool, error) {
	fn(nullValue)
	return true, nil
}

// NewIter hands out recycled iterators, since seekrandom makes one per
// seek, from a free list (a sync.Pool is emptied by collections).
func (nullDB) NewIter(*engine.IterOptions) (engine.Iterator, error) {
	nullIters.Lock()
	defer nullIters.Unlock()
	if n := len(nullIters.free); n > 0 {
		it := nullIters.free[n-1]
		nullIters.free = nullIters.free[:n-1]
		*it = nullIter{}
		return it, nil
	}
	return new(nullIter), nil
}

var nullIters struct {
	sync.Mutex
	free []*nullIter
}

func (nullDB) Flush() error                      { return nil }
func (nullDB) Compact([]byte, []byte, int) error { return nil }
func (nullDB) WaitForCompactions() error         { return nil }
func (nullDB) Property(string) (string, bool)    { return "", false }
func (nullDB) ResetStats() error                 { return nil }
func (nullDB) Close() error                      { return nil }

type nullBatch struct{ n int }

func (b *nullBatch) Put(k, v []byte)         { b.n++ }
func (b *nullBatch) Delete(k []byte)         { b.n++ }
func (b *nullBatch) Merge(k, v []byte)       { b.n++ }
func (b *nullBatch) DeleteRange(s, e []byte) { b.n++ }
func (b *nullBatch) Count() int              { return b.n }
func (b *nullBatch) Reset()                  { b.n = 0 }
func (b *nullBatch) Close()                  {}

// nullIter walks 1,000,000 synthetic entries.
type nullIter struct {
	i   int
	key [16]byte
}

func (it *nullIter) First() bool            { it.i = 0; return true }
func (it *nullIter) Last() bool             { it.i = 999999; return true }
func (it *nullIter) SeekGE(k []byte) bool   { copy(it.key[:], k); return true }
func (it *nullIter) SeekLE(k []byte) bool   { copy(it.key[:], k); return true }
func (it *nullIter) Next() bool             { it.i++; return it.i < 1000000 }
func (it *nullIter) Prev() bool             { it.i--; return it.i >= 0 }
func (it *nullIter) Valid() bool            { return it.i >= 0 && it.i < 1000000 }
func (it *nullIter) Key() []byte            { return it.key[:] }
func (it *nullIter) Value() ([]byte, error) { return nullValue, nil }
func (it *nullIter) Error() error           { return nil }
func (it *nullIter) Close() error {
	nullIters.Lock()
	nullIters.free = append(nullIters.free, it)
	nullIters.Unlock()
	return nil
}

func init() { engine.Register("null", nullEngine{}) }

// TestDriverAllocatesNothingPerOp runs 200k ops of each core benchmark on the
// null engine and requires well under one allocation per 100 ops: the
// driver's loops (key layout, value generation, stats, checksums) allocate
// nothing per operation.
func TestDriverAllocatesNothingPerOp(t *testing.T) {
	for _, b := range []string{"fillseq", "fillrandom", "readrandom", "readseq", "seekrandom", "updaterandom", "readrandomwriterandom", "deleterandom", "xorupdaterandom", "appendrandom", "randomreplacekeys"} {
		args := []string{"--engine=null", "--db=" + t.TempDir(), "--seed=1", "--num=200000", "--progress_reports=false",
			"--benchmarks=" + b, "--seek_nexts=2"}
		if allocs := mainAllocs(t, args); float64(allocs)/200000 > 0.01 {
			t.Errorf("%s: %d allocations for 200000 ops (%.3f per op)", b, allocs, float64(allocs)/200000)
		}
	}
}

// mainAllocs runs Main with args and returns the allocations it made.
func mainAllocs(t *testing.T, args []string) uint64 {
	t.Helper()
	var out, errb bytes.Buffer
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if code := dbbench.Main(args, &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// BenchmarkDriverOverhead measures the driver's own cost per op, alone and
// with --histogram (a clock read and two histogram updates per op) at one
// and at 8 threads (ns/op there is per 8 operations).
func BenchmarkDriverOverhead(b *testing.B) {
	for _, run := range []struct{ bench, extra string }{
		{"fillrandom", ""}, {"readrandom", ""}, {"readseq", ""},
		{"readseq", "--histogram"}, {"readseq", "--threads=8"}, {"readseq", "--threads=8 --histogram"},
	} {
		b.Run(strings.ReplaceAll(run.bench+" "+run.extra, " ", ""), func(b *testing.B) {
			var out, errb bytes.Buffer
			args := append([]string{"--engine=null", "--db=" + b.TempDir(), "--seed=1", "--num=" + itoa(b.N), "--progress_reports=false",
				"--benchmarks=" + run.bench}, strings.Fields(run.extra)...)
			b.ResetTimer()
			if code := dbbench.Main(args, &out, &errb); code != 0 {
				b.Fatal(errb.String())
			}
		})
	}
}

func itoa(n int) string {
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(buf[i:])
}

// TestTracingAllocatesNothingPerOp is TestDriverAllocatesNothingPerOp with
// --trace_file: recording each operation allocates nothing either.
func TestTracingAllocatesNothingPerOp(t *testing.T) {
	for _, b := range []string{"fillseq", "fillrandom", "readrandom", "seekrandom", "updaterandom", "deleterandom"} {
		dir := t.TempDir()
		args := []string{"--engine=null", "--db=" + dir + "/db", "--seed=1", "--num=200000", "--progress_reports=false",
			"--benchmarks=" + b, "--batch_size=4", "--trace_file=" + dir + "/trace"}
		if allocs := mainAllocs(t, args); float64(allocs)/200000 > 0.01 {
			t.Errorf("%s traced: %d allocations for 200000 ops (%.3f per op)", b, allocs, float64(allocs)/200000)
		}
	}
}

// BenchmarkTracingOverhead is BenchmarkDriverOverhead with --trace_file:
// the difference is the cost of recording an operation.
func BenchmarkTracingOverhead(b *testing.B) {
	for _, bench := range []string{"fillrandom", "readrandom"} {
		b.Run(bench, func(b *testing.B) {
			var out, errb bytes.Buffer
			dir := b.TempDir()
			args := []string{"--engine=null", "--db=" + dir + "/db", "--seed=1", "--num=" + itoa(b.N), "--progress_reports=false",
				"--benchmarks=" + bench, "--trace_file=" + dir + "/trace"}
			b.ResetTimer()
			if code := dbbench.Main(args, &out, &errb); code != 0 {
				b.Fatal(errb.String())
			}
		})
	}
}
