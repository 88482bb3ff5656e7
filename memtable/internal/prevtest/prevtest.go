// Package prevtest checks a memtable.Rep's reverse iteration against
// concurrent inserts: the contract is that a scan started at Last and
// stepped with Prev gives entries in reverse internal order (user keys
// descending, a key's versions oldest first) and includes every entry
// whose Add returned before the scan began. Reps whose Prev follows back
// links that inserts keep up (memtable/skiplist, memtable/offsetskiplist) run it under -race.
package prevtest

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// key is n as 8 big-endian bytes, memtablerep_bench's key shape.
func key(n int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }

// ConcurrentInserts fills r with keys 0, s, 2s, ... (perWriter of them,
// s = writers+1), then starts writers goroutines: each takes the existing
// keys in one shared random order and, for each key k, writer w adds the
// new key k+w+1 and then a new version of k. The writers thus work in the
// same gap between two keys at about the same time, so inserts next to
// each other race (for a back link, which of them sets it last). Meanwhile one goroutine runs
// reverse scans until the writers are done, each checked for order and
// against what the writers had finished when it began. r must start
// empty.
func ConcurrentInserts(t testing.TB, r memtable.Rep, writers, perWriter int) {
	t.Helper()
	s := writers + 1
	var seq atomic.Uint64
	add := func(k int) error { return r.Add(seq.Add(1), base.KindSet, key(k), nil) }
	for i := range perWriter {
		if err := add(i * s); err != nil {
			t.Fatal(err)
		}
	}
	orders := make([][]int, writers)
	progress := make([]atomic.Int64, writers) // steps each writer finished
	errc := make(chan error, writers+1)
	var writing sync.WaitGroup
	order := rand.New(rand.NewPCG(uint64(writers), 99)).Perm(perWriter)
	for w := range writers {
		orders[w] = order
		writing.Add(1)
		go func() {
			defer writing.Done()
			for step, i := range orders[w] {
				if err := add(i*s + w + 1); err != nil {
					errc <- err
					return
				}
				if err := add(i * s); err != nil {
					errc <- err
					return
				}
				progress[w].Store(int64(step + 1))
			}
		}()
	}
	var finished atomic.Bool
	scans := 0
	var reading sync.WaitGroup
	reading.Add(1)
	go func() {
		defer reading.Done()
		atLeast := make([]int, perWriter*s) // versions each key must show
		seen := make([]int, perWriter*s)
		for scans == 0 || !finished.Load() {
			clear(atLeast)
			for i := range perWriter {
				atLeast[i*s] = 1
			}
			for w := range writers {
				for _, i := range orders[w][:progress[w].Load()] {
					atLeast[i*s+w+1]++
					atLeast[i*s]++
				}
			}
			if err := reverseScan(r.NewIter(), seen); err != nil {
				errc <- err
				return
			}
			for k, n := range atLeast {
				if seen[k] < n {
					errc <- fmt.Errorf("scan %d saw %d versions of key %d; %d had been added before it began", scans, seen[k], k, n)
					return
				}
			}
			scans++
		}
	}()
	writing.Wait()
	finished.Store(true)
	reading.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	t.Logf("%d reverse scans", scans)
}

// reverseScan walks it from Last with Prev, counting each key's versions
// in seen, and fails on an entry out of reverse internal order.
func reverseScan(it memtable.Iter, seen []int) error {
	clear(seen)
	prevKey, prevSeq := len(seen), uint64(0)
	for ok := it.Last(); ok; ok = it.Prev() {
		k, sq := int(binary.BigEndian.Uint64(it.Key())), it.Seq()
		if k > prevKey || (k == prevKey && sq <= prevSeq) {
			return fmt.Errorf("reverse scan: %d@%d after %d@%d", k, sq, prevKey, prevSeq)
		}
		if k >= len(seen) {
			return fmt.Errorf("reverse scan: key %d was never added", k)
		}
		seen[k]++
		prevKey, prevSeq = k, sq
	}
	return nil
}
