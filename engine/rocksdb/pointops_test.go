//go:build rocksdb

package rocksdb

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// valueOfSize is a value whose bytes depend on the key and the size, so a
// value read from another key or cut short does not compare equal.
func valueOfSize(key string, n int) []byte {
	v := make([]byte, n)
	for i := range v {
		v[i] = byte(int(key[len(key)-1]) + i*7 + n)
	}
	return v
}

// TestGetValueSizes covers Get's three ways of handing a value back: within
// the pooled buffer, in C memory past it (after which the buffer grows), and
// in C memory past the largest buffer kept; and the empty value. Values are
// read from the memtable and, after a flush, from table blocks.
func TestGetValueSizes(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	sizes := []int{0, 1, 100, initialValueBuf - 1, initialValueBuf, initialValueBuf + 1,
		100 << 10, maxValueBuf, maxValueBuf + 1, 3 << 20}
	key := func(n int) string { return fmt.Sprintf("key-%09d", n) }
	for _, n := range sizes {
		if err := db.Put([]byte(key(n)), valueOfSize(key(n), n), nil); err != nil {
			t.Fatal(err)
		}
	}
	check := func(stage string) {
		t.Helper()
		// Twice over: the first pass grows buffers, the second reads through them.
		for pass := 0; pass < 2; pass++ {
			for _, n := range sizes {
				var got []byte
				found, err := db.Get([]byte(key(n)), func(v []byte) { got = append([]byte(nil), v...) })
				if err != nil || !found {
					t.Fatalf("%s: Get(%s) = %v, %v", stage, key(n), found, err)
				}
				if !bytes.Equal(got, valueOfSize(key(n), n)) {
					t.Fatalf("%s: Get(%s): %d bytes, want %d of the value written", stage, key(n), len(got), n)
				}
			}
		}
		found, err := db.Get([]byte("absent"), func([]byte) { t.Fatal("fn called for an absent key") })
		if found || err != nil {
			t.Fatalf("%s: Get(absent) = %v, %v", stage, found, err)
		}
	}
	check("memtable")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	check("table")
}

// TestPointOpsManyGoroutines runs more goroutines than OS threads through
// Put, Delete and Get, so goroutines share and move between the threads
// whose write batch and pinned slice the calls reuse. Every read must see
// its own goroutine's last write of its key (run with -race too).
func TestPointOpsManyGoroutines(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	const goroutines, rounds = 16, 300
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				k := []byte(fmt.Sprintf("g%02d-k%03d", g, r%17))
				want := valueOfSize(string(k), 50+(g*31+r)%6000)
				if r%5 == 4 {
					if err := db.Delete(k, nil); err != nil {
						errs <- err
						return
					}
					want = nil
				} else if err := db.Put(k, want, nil); err != nil {
					errs <- err
					return
				}
				var got []byte
				found, err := db.Get(k, func(v []byte) { got = append([]byte(nil), v...) })
				if err != nil {
					errs <- err
					return
				}
				if found != (want != nil) || !bytes.Equal(got, want) {
					errs <- fmt.Errorf("goroutine %d round %d: found=%v, %d bytes; want %d bytes", g, r, found, len(got), len(want))
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestRunsAllocateNothing checks that the engine's runs (engine.Runner),
// timed and untimed, allocate nothing on the Go heap. What they do is
// checked against loops of single calls by the conformance suite's Runs
// test.
func TestRunsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	runner := db.(engine.Runner)
	const keyLen, n = 8, 64
	var keys, values []byte
	var ends []int32
	for i := 0; i < n; i++ {
		keys = append(keys, fmt.Sprintf("k%07d", i)...)
		values = append(values, valueOfSize(fmt.Sprint(i), i%5*10)...)
		ends = append(ends, int32(len(values)))
	}
	sizes := make([]int32, n)
	done := make([]int64, n)
	wo := &engine.WriteOptions{DisableWAL: true}
	for _, times := range [][]int64{nil, done} {
		if a := testing.AllocsPerRun(100, func() { runner.PutRun(keys, keyLen, values, ends, wo, times) }); a != 0 {
			t.Errorf("PutRun (timed %v): %.1f allocs/op, want 0", times != nil, a)
		}
		if a := testing.AllocsPerRun(100, func() { runner.GetRun(keys, keyLen, sizes, times) }); a != 0 {
			t.Errorf("GetRun (timed %v): %.1f allocs/op, want 0", times != nil, a)
		}
		it, err := db.NewIter(nil)
		if err != nil {
			t.Fatal(err)
		}
		it.First()
		runner.ScanRun(it, 1, false, times)
		if a := testing.AllocsPerRun(100, func() { runner.ScanRun(it, 1, true, times) }); a != 0 {
			t.Errorf("ScanRun (timed %v): %.1f allocs/op, want 0", times != nil, a)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestScanRunStarts checks ScanRun's preconditions: a scan starts on a
// freshly positioned iterator, of this engine.
func TestScanRunStarts(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	if err := db.Put([]byte("a"), []byte("1"), nil); err != nil {
		t.Fatal(err)
	}
	runner := db.(engine.Runner)
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if _, _, _, err := runner.ScanRun(it, 5, true, nil); err == nil {
		t.Error("a scan not started on a positioned iterator was accepted")
	}
	if _, _, _, err := runner.ScanRun(otherIter{it}, 5, false, nil); err == nil {
		t.Error("a scan of another engine's iterator was accepted")
	}
}

// otherIter is an iterator that is not the engine's own.
type otherIter struct{ engine.Iterator }
