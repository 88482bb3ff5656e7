package enginetest

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/clock"
)

// testRuns checks engine.Runs, which uses the engine's Runner where it has
// one: every run gives what a loop of single calls gives (Get, Put,
// iterator steps), timed or not, with and without callbacks, over runs of
// several lengths; completion times run from the call's start, never
// backwards and never past the call's end; malformed runs are refused.
// The times are read as db_bench reads them, from the time stamp counter
// where internal/clock adopts it.
func testRuns(t *testing.T, open OpenFunc) {
	t.Logf("time stamp counter in use: %v", clock.Calibrate())
	db := open(t.TempDir())
	defer mustClose(t, db)
	t.Run("Put", func(t *testing.T) { testPutRuns(t, db) })
	t.Run("Get", func(t *testing.T) { testGetRuns(t, db) })
	t.Run("Scan", func(t *testing.T) { testScanRuns(t, db) })
}

const runKeyLen = 8

func runKey(i int) []byte { return []byte(fmt.Sprintf("k%07d", i)) }

// runValue is value i of the run tests: i%5*10 bytes, so some are empty.
func runValue(i int) []byte {
	return bytes.Repeat([]byte{byte('a' + i%26)}, i%5*10)
}

// checkTimes checks a run's completion times against the call's duration,
// measured on the monotonic clock: the run's times come from the time
// stamp counter at the rate Calibrate measured, so they may pass took by
// the calibration's error, allowed up to 1% as internal/clock's own test
// allows it. Times left in counter ticks (a missing conversion) are about
// twice to four times too long at this machine's 2-4 GHz and still fail.
func checkTimes(t *testing.T, what string, done []int64, took time.Duration) {
	t.Helper()
	limit := int64(took) + int64(took)/100
	prev := int64(0)
	for i, d := range done {
		if d < prev || d > limit {
			t.Fatalf("%s: operation %d ended at %d ns (previous %d, the call took %d)", what, i, d, prev, int64(took))
		}
		prev = d
	}
}

// testPutRuns writes keys 0-299 of the even numbers, the first 20 of them
// twice (the later write wins), in runs, timed and untimed.
func testPutRuns(t *testing.T, db engine.DB) {
	runs := engine.NewRuns(db)
	var keys, values []byte
	var ends []int32
	for i := 0; i < 170; i++ {
		keys = append(keys, runKey(i%150*2)...)
		values = append(values, runValue(i)...)
		ends = append(ends, int32(len(values)))
	}
	done := make([]int64, 100)
	begin := time.Now()
	if n, err := runs.Put(keys[:100*runKeyLen], runKeyLen, values[:ends[99]], ends[:100], noSyncWrite, done); err != nil || n != 100 {
		t.Fatalf("timed Put run = %d, %v; want 100, nil", n, err)
	}
	checkTimes(t, "Put run", done, time.Since(begin))
	rest := ends[100:]
	for i := range rest {
		rest[i] -= ends[99]
	}
	if n, err := runs.Put(keys[100*runKeyLen:], runKeyLen, values[len(values)-int(rest[len(rest)-1]):], rest, noSyncWrite, nil); err != nil || n != 70 {
		t.Fatalf("Put run = %d, %v; want 70, nil", n, err)
	}
	for k := 0; k < 150; k++ {
		i := k
		if k < 20 {
			i = k + 150
		}
		expectGet(t, db, runKey(k*2), string(runValue(i)), true)
	}
	if _, err := runs.Put(keys[:5], runKeyLen, values, ends[:1], noSyncWrite, nil); err == nil {
		t.Error("a Put run with keys of the wrong length was accepted")
	}
	if _, err := runs.Put(keys[:runKeyLen], runKeyLen, values[:ends[0]+1], ends[:1], noSyncWrite, nil); err == nil {
		t.Error("a Put run with values not matching their ends was accepted")
	}
	if _, err := runs.Put(keys[:runKeyLen], runKeyLen, values[:ends[0]], ends[:1], noSyncWrite, done[:2]); err == nil {
		t.Error("a Put run with room for more times than writes was accepted")
	}
}

// testGetRuns looks keys 0-299 up after testPutRuns, half of them absent.
func testGetRuns(t *testing.T, db engine.DB) {
	runs := engine.NewRuns(db)
	const n = 300
	var keys []byte
	for i := 0; i < n; i++ {
		keys = append(keys, runKey(i)...)
	}
	for _, timed := range []bool{false, true} {
		for _, withValues := range []bool{false, true} {
			for _, run := range []int{1, 7, n} {
				what := fmt.Sprintf("Get runs of %d (timed %v, values %v)", run, timed, withValues)
				sizes := make([]int32, n)
				got := make([][]byte, n)
				var fn func(int, []byte)
				if withValues {
					from := 0
					fn = func(i int, v []byte) { got[from+i] = append([]byte{}, v...) }
					for ; from < n; from += run {
						runGets(t, runs, what, keys, sizes, from, min(run, n-from), fn, timed)
					}
				} else {
					for from := 0; from < n; from += run {
						runGets(t, runs, what, keys, sizes, from, min(run, n-from), nil, timed)
					}
				}
				for i := 0; i < n; i++ {
					var want []byte
					found, err := db.Get(runKey(i), func(v []byte) { want = append([]byte{}, v...) })
					if err != nil {
						t.Fatalf("%s: Get: %v", what, err)
					}
					wantSize := int32(-1)
					if found {
						wantSize = int32(len(want))
					}
					if sizes[i] != wantSize {
						t.Fatalf("%s: key %d: size %d, want %d", what, i, sizes[i], wantSize)
					}
					if withValues && (!bytes.Equal(got[i], want) || (got[i] == nil) != !found) {
						t.Fatalf("%s: key %d: value %q, want %q (found %v)", what, i, got[i], want, found)
					}
				}
			}
		}
	}
	if err := runs.Get(keys[:5], runKeyLen, make([]int32, 1), nil, nil); err == nil {
		t.Error("a Get run with keys of the wrong length was accepted")
	}
	if err := runs.Get(keys[:runKeyLen], runKeyLen, make([]int32, 1), nil, make([]int64, 2)); err == nil {
		t.Error("a Get run with room for more times than lookups was accepted")
	}
	if err := runs.Get(nil, runKeyLen, nil, nil, nil); err != nil {
		t.Errorf("an empty Get run: %v", err)
	}
}

// runGets looks up keys from..from+count-1 in one run. fn, when not nil,
// receives indexes within the run, which the caller offsets.
func runGets(t *testing.T, runs *engine.Runs, what string, keys []byte, sizes []int32, from, count int, fn func(int, []byte), timed bool) {
	t.Helper()
	var done []int64
	if timed {
		done = make([]int64, count)
	}
	begin := time.Now()
	if err := runs.Get(keys[from*runKeyLen:(from+count)*runKeyLen], runKeyLen, sizes[from:from+count], fn, done); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	checkTimes(t, what, done, time.Since(begin))
}

// testScanRuns scans the database of testPutRuns in runs of several
// lengths, forwards and backwards, keys only or not, timed or not, with and
// without a callback per entry, and compares each with a loop of steps.
func testScanRuns(t *testing.T, db engine.DB) {
	runs := engine.NewRuns(db)
	for _, reverse := range []bool{false, true} {
		for _, keysOnly := range []bool{false, true} {
			want := plainScan(t, db, reverse, keysOnly)
			for _, timed := range []bool{false, true} {
				for _, entries := range []bool{false, true} {
					for _, run := range []int{1, 7, 64, 5000} {
						what := fmt.Sprintf("scan runs of %d (reverse %v, keys only %v, timed %v, entries %v)", run, reverse, keysOnly, timed, entries)
						got := scanInRuns(t, runs, db, what, run, &engine.ScanOptions{Reverse: reverse, KeysOnly: keysOnly}, timed, entries)
						if got.count != want.count || got.bytes != want.bytes || (entries && got.entries != want.entries) {
							t.Fatalf("%s: %d entries, %d bytes; a loop of steps: %d, %d", what, got.count, got.bytes, want.count, want.bytes)
						}
					}
				}
			}
		}
	}
}

// scanResult is what a scan counted; entries lists the keys and values.
type scanResult struct {
	count, bytes int64
	entries      string
}

func (s *scanResult) add(k, v []byte) {
	s.entries += fmt.Sprintf("%q=%q ", k, v)
}

// plainScan is the loop of steps a scan of the whole database makes.
func plainScan(t *testing.T, db engine.DB, reverse, keysOnly bool) scanResult {
	it, err := db.NewIter(&engine.IterOptions{KeysOnly: keysOnly})
	if err != nil {
		t.Fatal(err)
	}
	defer closeIter(t, it)
	var res scanResult
	valid := it.First()
	if reverse {
		valid = it.Last()
	}
	for ; valid; valid = step(it, reverse) {
		k := it.Key()
		var v []byte
		if !keysOnly {
			if v, err = it.Value(); err != nil {
				t.Fatal(err)
			}
		}
		res.count++
		res.bytes += int64(len(k) + len(v))
		res.add(k, v)
	}
	if err := it.Error(); err != nil {
		t.Fatal(err)
	}
	return res
}

func step(it engine.Iterator, reverse bool) bool {
	if reverse {
		return it.Prev()
	}
	return it.Next()
}

// scanInRuns scans the whole database in runs of up to run entries, then
// checks that a run after the end counts nothing.
func scanInRuns(t *testing.T, runs *engine.Runs, db engine.DB, what string, run int, o *engine.ScanOptions, timed, entries bool) scanResult {
	t.Helper()
	it, err := db.NewIter(&engine.IterOptions{KeysOnly: o.KeysOnly})
	if err != nil {
		t.Fatal(err)
	}
	defer closeIter(t, it)
	var res scanResult
	if entries {
		o.Entry = res.add
	}
	var done []int64
	if timed {
		done = make([]int64, run)
	}
	valid := it.First()
	if o.Reverse {
		valid = it.Last()
	}
	for stepFirst := false; valid; stepFirst = true {
		begin := time.Now()
		n, b, more, err := runs.Scan(it, run, stepFirst, o, done)
		took := time.Since(begin)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n > run || (more && n != run) {
			t.Fatalf("%s: a run counted %d entries, more %v", what, n, more)
		}
		if timed {
			checkTimes(t, what, done[:n], took)
		}
		res.count += int64(n)
		res.bytes += b
		valid = more
	}
	if n, _, more, err := runs.Scan(it, run, true, o, done); n != 0 || more || err != nil {
		t.Fatalf("%s: a run after the end = %d entries, more %v, %v", what, n, more, err)
	}
	if _, _, _, err := runs.Scan(it, run+1, true, o, make([]int64, run)); err == nil {
		t.Fatalf("%s: a run with room for fewer times than entries was accepted", what)
	}
	return res
}
