package lsm

import (
	"fmt"
	"sync"
	"testing"
)

// TestRowCacheConcurrentReads: readers Get keys whose values never change
// through a row cache of 8 KiB, so rows are dropped and copied to the
// ring's head while other readers copy them out, and a writer overwrites
// other keys and flushes and compacts, moving the fixed keys to new
// tables. Every read must return the key's one value (run it with -race).
func TestRowCacheConcurrentReads(t *testing.T) {
	o := testOptions()
	o.RowCacheSize = 8 << 10
	o.WriteBufferSize = 16 << 10
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	const fixed = 200
	for i := range fixed {
		put(t, db, fmt.Sprintf("f%04d", i), fmt.Sprintf("value-of-f%04d", i))
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 4)
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var got []byte
			fn := func(v []byte) { got = append(got[:0], v...) }
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				k := (n*7 + r*13) % fixed
				ok, err := db.Get(fmt.Appendf(nil, "f%04d", k), fn)
				if want := fmt.Sprintf("value-of-f%04d", k); err != nil || !ok || string(got) != want {
					errs <- fmt.Errorf("get f%04d = %q %v %v, want %q", k, got, ok, err, want)
					return
				}
			}
		}()
	}
	for i := range 3000 {
		put(t, db, fmt.Sprintf("w%04d", i%500), fmt.Sprint("w", i))
		if i%1000 == 999 {
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
