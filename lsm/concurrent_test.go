package lsm

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentReadWrite runs writers, readers, scanners and manual
// flushes/compactions at once. Each writer owns a key range and writes
// increasing counters, so a reader must never see a counter go backwards.
// With cspp on a 16 MiB arena and offset_skiplist (both off the Go heap)
// every flushed memtable's arena is released to the next one while readers
// may still hold it, so
// the run also checks that a release waits for the last reader (a released
// arena is dropped, so a late read would panic; under -race, its slices
// are written without synchronisation).
func TestConcurrentReadWrite(t *testing.T) {
	for _, rep := range []string{"skip_list", `cspp:{"mem_cap":"16M"}`, "offset_skiplist"} {
		t.Run(rep, func(t *testing.T) { testConcurrentReadWrite(t, rep) })
	}
}

func testConcurrentReadWrite(t *testing.T, rep string) {
	o := testOptions()
	o.Memtablerep = rep
	o.WriteBufferSize = 32 << 10
	o.MaxBackgroundJobs = 4
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	const writers, keys, rounds = 4, 50, 60
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Write i of a writer is key i%keys of round i/keys+1.
		err := writeFromGoroutines(db, writers, rounds*keys, func(b *Batch, w, i int) WriteOptions {
			r, k := i/keys+1, i%keys
			b.Put([]byte(fmt.Sprintf("w%d-k%03d", w, k)), []byte(strconv.Itoa(r)))
			if k%10 == 0 {
				b.Delete([]byte(fmt.Sprintf("w%d-gone%03d", w, k)))
			}
			return WriteOptions{Sync: r%20 == 0 && k == 0}
		}, nil)
		if err != nil {
			errs <- err
		}
	}()
	var readers sync.WaitGroup
	for rd := 0; rd < 2; rd++ {
		readers.Add(1)
		go func(rd int) {
			defer readers.Done()
			last := map[string]int{}
			for {
				select {
				case <-done:
					return
				default:
				}
				for w := 0; w < writers; w++ {
					key := fmt.Sprintf("w%d-k%03d", w, (rd*7+w)%keys)
					var v int
					found, err := db.Get([]byte(key), func(b []byte) { v, _ = strconv.Atoi(string(b)) })
					if err != nil {
						errs <- err
						return
					}
					if found && v < last[key] {
						errs <- fmt.Errorf("%s went back from %d to %d", key, last[key], v)
						return
					}
					last[key] = v
				}
				snap := db.NewSnapshot()
				it, err := db.NewIter(&IterOptions{Snapshot: snap})
				if err != nil {
					errs <- err
					return
				}
				prev := ""
				for ok := it.First(); ok; ok = it.Next() {
					k := string(it.Key())
					if k <= prev || strings.Contains(k, "gone") {
						errs <- fmt.Errorf("scan: %q after %q", k, prev)
						break
					}
					prev = k
				}
				if err := it.Close(); err != nil {
					errs <- err
				}
				snap.Release()
			}
		}(rd)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 5; i++ {
			if err := db.Flush(); err != nil {
				errs <- err
				return
			}
			if err := db.Compact(nil, nil, -1); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	for w := 0; w < writers; w++ {
		for k := 0; k < keys; k++ {
			if v, ok := getString(t, db, fmt.Sprintf("w%d-k%03d", w, k)); !ok || v != strconv.Itoa(rounds) {
				t.Fatalf("w%d-k%03d = %q %v", w, k, v, ok)
			}
		}
	}
}
