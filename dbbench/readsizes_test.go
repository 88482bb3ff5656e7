package dbbench_test

import (
	"bytes"
	"io"
	"regexp"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbbench/godbbench/dbbench"
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// sizesEngine is the native engine with an engine.SizeGetter made of Gets
// and an engine.RunPutter made of Puts, so the driver's run-at-a-time
// readrandom and fills can be compared with its one-call loops on the same
// engine.
type sizesEngine struct{ inner engine.Opener }

func (e sizesEngine) Info() engine.Info { return e.inner.Info() }
func (e sizesEngine) Open(dir string, o *options.Options, warn io.Writer) (engine.DB, error) {
	db, err := e.inner.Open(dir, o, warn)
	if err != nil {
		return nil, err
	}
	return &sizesDB{DB: db}, nil
}
func (e sizesEngine) Destroy(dir string, o *options.Options) error { return e.inner.Destroy(dir, o) }

type sizesDB struct{ engine.DB }

// sizesRuns and putRuns count GetSizes and PutRun calls, so the test knows
// the runs were used.
var sizesRuns, putRuns atomic.Int64

func (d *sizesDB) PutRun(keys []byte, keyLen int, values []byte, ends []int32, wo *engine.WriteOptions) (int, error) {
	putRuns.Add(1)
	start := int32(0)
	for i, end := range ends {
		if err := d.Put(keys[i*keyLen:(i+1)*keyLen], values[start:end], wo); err != nil {
			return i, err
		}
		start = end
	}
	return len(ends), nil
}

func (d *sizesDB) GetSizes(keys []byte, keyLen int, sizes []int32) error {
	sizesRuns.Add(1)
	for i := range sizes {
		sizes[i] = -1
		if _, err := d.Get(keys[i*keyLen:(i+1)*keyLen], func(v []byte) { sizes[i] = int32(len(v)) }); err != nil {
			return err
		}
	}
	return nil
}

// timedRuns counts the timed calls (engine.TimedRunner), which time each
// operation with the Go clock.
var timedRuns atomic.Int64

func (d *sizesDB) PutRunTimed(keys []byte, keyLen int, values []byte, ends []int32, wo *engine.WriteOptions, doneNs []int64) (int, error) {
	timedRuns.Add(1)
	begin, start := time.Now(), int32(0)
	for i, end := range ends {
		if err := d.Put(keys[i*keyLen:(i+1)*keyLen], values[start:end], wo); err != nil {
			return i, err
		}
		doneNs[i] = int64(time.Since(begin))
		start = end
	}
	return len(ends), nil
}

func (d *sizesDB) GetSizesTimed(keys []byte, keyLen int, sizes []int32, doneNs []int64) error {
	timedRuns.Add(1)
	begin := time.Now()
	for i := range sizes {
		sizes[i] = -1
		if _, err := d.Get(keys[i*keyLen:(i+1)*keyLen], func(v []byte) { sizes[i] = int32(len(v)) }); err != nil {
			return err
		}
		doneNs[i] = int64(time.Since(begin))
	}
	return nil
}

func (d *sizesDB) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	it, err := d.DB.NewIter(o)
	if err != nil {
		return nil, err
	}
	return &sizesIter{Iterator: it}, nil
}

// sizesIter adds an engine.SizeScanner made of Next, Key and Value.
type sizesIter struct{ engine.Iterator }

// scanRuns counts ScanSizes calls.
var scanRuns atomic.Int64

func (it *sizesIter) ScanSizes(n int, stepFirst bool) (int, int64, bool, error) {
	scanRuns.Add(1)
	return it.scan(n, stepFirst, nil)
}

// timedScans counts ScanSizesTimed calls.
var timedScans atomic.Int64

func (it *sizesIter) ScanSizesTimed(n int, stepFirst bool, doneNs []int64) (int, int64, bool, error) {
	timedScans.Add(1)
	return it.scan(n, stepFirst, doneNs)
}

func (it *sizesIter) scan(n int, stepFirst bool, doneNs []int64) (int, int64, bool, error) {
	begin := time.Now()
	if stepFirst && !it.Next() || !it.Valid() {
		return 0, 0, false, it.Error()
	}
	var count int
	var bytes int64
	for {
		v, err := it.Value()
		if err != nil {
			return count, bytes, false, err
		}
		bytes += int64(len(it.Key()) + len(v))
		if doneNs != nil {
			doneNs[count] = int64(time.Since(begin))
		}
		count++
		if count == n {
			return count, bytes, true, nil
		}
		if !it.Next() {
			return count, bytes, false, it.Error()
		}
	}
}

func init() {
	native, err := engine.Lookup("native")
	if err != nil {
		panic(err)
	}
	engine.Register("native-sizes", sizesEngine{inner: native})
}

// progressCounts matches the operation counts of progress lines ("...
// finished N ops") and stats-interval lines ("(N,M) ops").
var progressCounts = regexp.MustCompile(`finished \d+ ops|\(\d+,\d+\) ops`)

// TestReadRandomThroughSizeGetter runs fillrandom and readrandom with the
// one-call loops and with runs through a RunPutter and a SizeGetter, with
// progress reports on and counts that are not multiples of the run length:
// the found counts (which depend on what the fill wrote), the MB/s lines and
// the progress lines must be the same.
//
// Without progress reports the runs are the longest (maxRunOps), and
// --num=20011 is more than one of them.
func TestReadRandomThroughSizeGetter(t *testing.T) {
	for _, extra := range [][]string{{"--progress_reports=true"}, {"--progress_reports=true", "--stats_interval=1000"}, {"--progress_reports=false"}} {
		checkReadRandomThroughSizeGetter(t, extra)
	}
}

// runSizesBench runs fillrandom, readrandom and readseq (20,011 writes,
// 10,007 reads) on eng with extra flags, and returns the standard output
// and the counts of the progress lines.
func runSizesBench(t *testing.T, eng string, extra []string) (stdout string, progress []string) {
	t.Helper()
	var out, errb bytes.Buffer
	args := append([]string{"--engine=" + eng, "--db=" + t.TempDir(), "--seed=7", "--num=20011", "--reads=10007",
		"--benchmarks=fillrandom,readrandom,readseq"}, extra...)
	if code := dbbench.Main(args, &out, &errb); code != 0 {
		t.Fatalf("%s: exit %d: %s", eng, code, errb.String())
	}
	return out.String(), progressCounts.FindAllString(errb.String(), -1)
}

func checkReadRandomThroughSizeGetter(t *testing.T, extra []string) {
	plainOut, plainProgress := runSizesBench(t, "native", extra)
	before, beforePuts, beforeScans := sizesRuns.Load(), putRuns.Load(), scanRuns.Load()
	sizesOut, sizesProgress := runSizesBench(t, "native-sizes", extra)
	if sizesRuns.Load() == before || putRuns.Load() == beforePuts || scanRuns.Load() == beforeScans {
		t.Fatal("readrandom, fillrandom or readseq did not use the runs")
	}
	scanned := regexp.MustCompile(`readseq +:.* (\d+) operations; +[0-9.]+ MB/s`)
	ps, ss := scanned.FindStringSubmatch(plainOut), scanned.FindStringSubmatch(sizesOut)
	if ps == nil || ss == nil || ps[1] != ss[1] {
		t.Fatalf("readseq counts differ:\none-call: %v\nruns:     %v", ps, ss)
	}
	found := regexp.MustCompile(`readrandom .*\((\d+) of (\d+) found\)`)
	mb := regexp.MustCompile(`readrandom .* ([0-9.]+) MB/s`)
	p, s := found.FindStringSubmatch(plainOut), found.FindStringSubmatch(sizesOut)
	if p == nil || s == nil || p[1] != s[1] || p[2] != s[2] || s[2] != "10007" {
		t.Fatalf("found counts differ:\none-Get: %v\nruns:    %v", p, s)
	}
	if mb.FindStringSubmatch(plainOut) == nil || mb.FindStringSubmatch(sizesOut) == nil {
		t.Fatalf("no MB/s on the readrandom lines:\n%s\n%s", plainOut, sizesOut)
	}
	reports := slices.Contains(extra, "--progress_reports=true")
	if (reports && len(plainProgress) == 0) || !slices.Equal(plainProgress, sizesProgress) {
		t.Fatalf("progress lines differ:\none-Get: %v\nruns:    %v", plainProgress, sizesProgress)
	}
}

// TestTimedRunsKeepHistograms runs the same benchmarks with --histogram=1:
// the driver then uses the engine's timed runs (engine.TimedRunner), and
// the found counts, the progress lines and every histogram's count must be
// those of the one-call loops, and its average latency must be sane.
func TestTimedRunsKeepHistograms(t *testing.T) {
	extra := []string{"--histogram=1", "--progress_reports=true"}
	plainOut, plainProgress := runSizesBench(t, "native", extra)
	before, beforeScans := timedRuns.Load(), timedScans.Load()
	timedOut, timedProgress := runSizesBench(t, "native-sizes", extra)
	if timedRuns.Load() < before+2 || timedScans.Load() == beforeScans {
		t.Fatal("fillrandom, readrandom or readseq did not use the timed runs")
	}
	found := regexp.MustCompile(`readrandom .*\((\d+) of (\d+) found\)`)
	if p, s := found.FindStringSubmatch(plainOut), found.FindStringSubmatch(timedOut); p == nil || s == nil || p[1] != s[1] {
		t.Fatalf("found counts differ:\none-Get: %v\ntimed:   %v", p, s)
	}
	if !slices.Equal(plainProgress, timedProgress) {
		t.Fatalf("progress lines differ:\none-Get: %v\ntimed:   %v", plainProgress, timedProgress)
	}
	counts := regexp.MustCompile(`Count: (\d+) Average: ([0-9.]+)`)
	p, s := counts.FindAllStringSubmatch(plainOut, -1), counts.FindAllStringSubmatch(timedOut, -1)
	if len(p) < 2 || len(p) != len(s) {
		t.Fatalf("histograms: %d one-call, %d timed\n%s", len(p), len(s), timedOut)
	}
	for i := range p {
		if p[i][1] != s[i][1] {
			t.Fatalf("histogram %d counts %s one-call, %s timed", i, p[i][1], s[i][1])
		}
		if avg, err := strconv.ParseFloat(s[i][2], 64); err != nil || avg <= 0 || avg > 10000 {
			t.Fatalf("histogram %d of the timed runs averages %q micros", i, s[i][2])
		}
	}
}
