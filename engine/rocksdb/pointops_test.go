//go:build rocksdb

package rocksdb

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"time"

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

// TestGetSizes checks engine.SizeGetter against Get: present keys (an empty
// value among them), absent keys, and malformed arguments.
func TestGetSizes(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	const keyLen = 8
	key := func(i int) []byte { return []byte(fmt.Sprintf("k%07d", i)) }
	for i := 0; i < 300; i += 2 {
		if err := db.Put(key(i), valueOfSize(string(key(i)), i%7*30), nil); err != nil {
			t.Fatal(err)
		}
	}
	sg := db.(*DB)
	keys := make([]byte, 0, 300*keyLen)
	for i := 0; i < 300; i++ {
		keys = append(keys, key(i)...)
	}
	sizes := make([]int32, 300)
	if err := sg.GetSizes(keys, keyLen, sizes); err != nil {
		t.Fatal(err)
	}
	for i, got := range sizes {
		want := int32(-1)
		if i%2 == 0 {
			want = int32(i % 7 * 30)
		}
		if got != want {
			t.Fatalf("size of key %d = %d, want %d", i, got, want)
		}
	}
	if err := sg.GetSizes(keys[:5], keyLen, sizes[:1]); err == nil {
		t.Fatal("no error for keys of the wrong length")
	}
	if err := sg.GetSizes(nil, keyLen, nil); err != nil {
		t.Fatalf("no keys: %v", err)
	}
	if !raceEnabled {
		if n := testing.AllocsPerRun(100, func() { sg.GetSizes(keys[:64*keyLen], keyLen, sizes[:64]) }); n != 0 {
			t.Errorf("GetSizes: %.1f allocs/op, want 0", n)
		}
	}
}

// TestPutRun checks engine.RunPutter: every entry of a run is written (an
// empty value among them), later entries of the same key win, and malformed
// arguments are refused.
func TestPutRun(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	rp := db.(*DB)
	const keyLen = 8
	var keys, values []byte
	var ends []int32
	for i := 0; i < 100; i++ {
		keys = append(keys, fmt.Sprintf("k%07d", i%90)...) // keys 0-9 twice
		values = append(values, valueOfSize(fmt.Sprint(i), i%5*10)...)
		ends = append(ends, int32(len(values)))
	}
	n, err := rp.PutRun(keys, keyLen, values, ends, nil)
	if err != nil || n != 100 {
		t.Fatalf("PutRun = %d, %v", n, err)
	}
	for i := 10; i < 100; i++ { // the later write of keys 0-9 is i = 90..99
		var got []byte
		found, err := db.Get([]byte(fmt.Sprintf("k%07d", i%90)), func(v []byte) { got = append([]byte(nil), v...) })
		want := valueOfSize(fmt.Sprint(i), i%5*10)
		if err != nil || !found || !bytes.Equal(got, want) {
			t.Fatalf("key %d: %q, %v, %v; want %q", i%90, got, found, err, want)
		}
	}
	if _, err := rp.PutRun(keys[:5], keyLen, values, ends[:1], nil); err == nil {
		t.Fatal("no error for keys of the wrong length")
	}
	if _, err := rp.PutRun(keys[:keyLen], keyLen, values, ends[:1], nil); err == nil {
		t.Fatal("no error for values not matching the ends")
	}
	if !raceEnabled {
		wo := &engine.WriteOptions{DisableWAL: true}
		if a := testing.AllocsPerRun(100, func() { rp.PutRun(keys[:64*keyLen], keyLen, values[:ends[63]], ends[:64], wo) }); a != 0 {
			t.Errorf("PutRun: %.1f allocs/op, want 0", a)
		}
	}
}

// TestTimedRuns checks engine.TimedRunner and engine.TimedScanner: the
// timed calls give the same sizes, writes and scan counts as the untimed ones, and each operation's end time is
// after the call began, no earlier than the one before, and within the
// call's own duration; a times slice of the wrong length is refused.
func TestTimedRuns(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	tr := engine.TimedRunner(db.(*DB))
	const keyLen, n = 8, 200
	var keys, values []byte
	var ends []int32
	for i := 0; i < n; i++ {
		keys = append(keys, fmt.Sprintf("k%07d", i)...)
		values = append(values, valueOfSize(fmt.Sprint(i), i%4*20)...)
		ends = append(ends, int32(len(values)))
	}
	checkTimes := func(what string, done []int64, took time.Duration) {
		t.Helper()
		prev := int64(0)
		for i, d := range done {
			if d <= 0 || d < prev || d > int64(took) {
				t.Fatalf("%s: operation %d ended at %d ns (previous %d, call took %d)", what, i, d, prev, took)
			}
			prev = d
		}
	}
	done := make([]int64, n)
	begin := time.Now()
	written, err := tr.PutRunTimed(keys, keyLen, values, ends, nil, done)
	if err != nil || written != n {
		t.Fatalf("PutRunTimed = %d, %v", written, err)
	}
	checkTimes("PutRunTimed", done, time.Since(begin))
	sizes := make([]int32, n+1)
	keys = append(keys, "absent.."...)
	done = make([]int64, n+1)
	begin = time.Now()
	if err := tr.GetSizesTimed(keys, keyLen, sizes, done); err != nil {
		t.Fatal(err)
	}
	checkTimes("GetSizesTimed", done, time.Since(begin))
	for i, got := range sizes {
		want := int32(i % 4 * 20)
		if i == n {
			want = -1
		}
		if got != want {
			t.Fatalf("size of key %d = %d, want %d", i, got, want)
		}
	}
	if err := tr.GetSizesTimed(keys, keyLen, sizes, done[:n]); err == nil {
		t.Fatal("GetSizesTimed took too few times")
	}
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	ts := it.(engine.TimedScanner)
	if !it.First() {
		t.Fatal("empty")
	}
	if _, _, _, err := ts.ScanSizesTimed(n, false, done[:n-1]); err == nil {
		t.Fatal("ScanSizesTimed took too few times")
	}
	begin = time.Now()
	count, bytes, more, err := ts.ScanSizesTimed(n, false, done)
	// It stops on the n-th entry, the last, so more is true.
	if err != nil || count != n || !more || bytes != int64(n*keyLen+len(values)) {
		t.Fatalf("ScanSizesTimed = %d entries, %d bytes, more %v, %v; want %d, %d, true", count, bytes, more, err, n, n*keyLen+len(values))
	}
	checkTimes("ScanSizesTimed", done[:count], time.Since(begin))
	if _, err := tr.PutRunTimed(keys[:n*keyLen], keyLen, values, ends, nil, done); err == nil {
		t.Fatal("PutRunTimed took too many times")
	}
}

// TestScanSizes checks engine.SizeScanner against a plain scan: counts and
// bytes over runs of several lengths, a keys-only iterator, running off the
// end (and calling again after it), and a scan that was never started.
func TestScanSizes(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	var wantKeys, wantBytes int64
	for i := 0; i < 1000; i++ {
		k := []byte(fmt.Sprintf("key-%05d", i))
		v := valueOfSize(string(k), i%13*9)
		if err := db.Put(k, v, nil); err != nil {
			t.Fatal(err)
		}
		wantKeys += int64(len(k))
		wantBytes += int64(len(k) + len(v))
	}
	for _, keysOnly := range []bool{false, true} {
		for _, run := range []int{1, 7, 128, 5000} {
			it, err := db.NewIter(&engine.IterOptions{KeysOnly: keysOnly})
			if err != nil {
				t.Fatal(err)
			}
			ss := it.(engine.SizeScanner)
			if _, _, _, err := ss.ScanSizes(run, true); err == nil {
				t.Fatal("a scan not started on a positioned iterator was accepted")
			}
			if !it.First() {
				t.Fatal("empty")
			}
			var count, bytes int64
			stepFirst := false
			for {
				n, b, more, err := ss.ScanSizes(run, stepFirst)
				if err != nil {
					t.Fatal(err)
				}
				if n > run || (more && n != run) {
					t.Fatalf("run %d: %d entries, more %v", run, n, more)
				}
				count += int64(n)
				bytes += b
				if !more {
					break
				}
				stepFirst = true
			}
			want := wantBytes
			if keysOnly {
				want = wantKeys
			}
			if count != 1000 || bytes != want {
				t.Fatalf("keysOnly %v, run %d: %d entries, %d bytes; want 1000, %d", keysOnly, run, count, bytes, want)
			}
			if n, _, more, err := ss.ScanSizes(run, true); n != 0 || more || err != nil {
				t.Fatalf("after the end: %d, %v, %v", n, more, err)
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
