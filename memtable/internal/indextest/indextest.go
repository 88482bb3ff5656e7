// Package indextest checks a memtable.Rep whose searches start from an
// index of its nodes (memtable/internal/levelindex) across the index's
// builds: Adds on several goroutines, of keys that often share their first
// 8 bytes (so the index holds runs of equal prefixes) and of new versions
// of keys already there, race with the builds and with readers; every
// search is then compared with a sorted model. memtable/skiplist and
// memtable/offsetskiplist run it under -race.
package indextest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// Key is key number i of a set whose keys often share their first 8
// bytes: groups of 8 keys with one 8-byte prefix and suffixes of 0-2
// bytes, and every 5th group a key shorter than 8 bytes.
func Key(i int) []byte {
	k := binary.BigEndian.AppendUint64(nil, uint64(i/8)<<8)
	switch i % 8 {
	case 0:
		if (i/8)%5 == 0 {
			return k[:7]
		}
		return k
	case 1:
		return append(k, 0)
	default:
		return append(k, byte(i%8), 'x')
	}
}

// entry is one Add of the model.
type entry struct {
	key []byte
	seq uint64
}

// compare orders entries as a memtable does: key ascending, then sequence
// descending.
func compare(a, b entry) int {
	if c := bytes.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(b.seq, a.seq)
}

// Concurrent adds n entries to the empty r from writers goroutines, in
// random order, over n*7/8 keys (so about one Add in 8 is a new version of
// a key), while a reader seeks keys already added and checks it finds
// them. Then it checks that indexed reports an index was built, and Seek,
// SeekForPrev, Get, Last and full scans both ways against the model.
func Concurrent(t testing.TB, r memtable.Rep, writers, n int, indexed func() bool) {
	t.Helper()
	nkeys := n * 7 / 8
	rng := rand.New(rand.NewPCG(uint64(n), uint64(writers)))
	all := make([]entry, n)
	for i := range all {
		all[i] = entry{key: Key(rng.IntN(nkeys)), seq: uint64(i + 1)}
	}
	var done atomic.Int64 // writer 0's first done entries are in
	var wg sync.WaitGroup
	errs := make(chan string, writers+1)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += writers {
				if err := r.Add(all[i].seq, base.KindSet, all[i].key, nil); err != nil {
					errs <- err.Error()
					return
				}
				if w == 0 {
					done.Store(int64(i/writers + 1))
				}
			}
		}()
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		it := r.NewIter()
		for j := 0; ; j++ {
			select {
			case <-stop:
				return
			default:
			}
			d := int(done.Load())
			if d == 0 {
				continue
			}
			e := all[writers*(j%d)]
			if !it.Seek(e.key, base.MaxSeq) || !bytes.Equal(it.Key(), e.key) {
				errs <- "Seek missed a key added before it began: " + string(e.key)
				return
			}
			if !it.SeekForPrev(e.key, 0) || !bytes.Equal(it.Key(), e.key) {
				errs <- "SeekForPrev missed a key added before it began: " + string(e.key)
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	readers.Wait()
	select {
	case e := <-errs:
		t.Fatal(e)
	default:
	}
	if !indexed() {
		t.Fatal("no index was built")
	}
	slices.SortFunc(all, compare)
	checkModel(t, r, all)
}

// checkModel compares r's searches and scans with sorted, its entries.
func checkModel(t testing.TB, r memtable.Rep, sorted []entry) {
	t.Helper()
	it := r.NewIter()
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		if i >= len(sorted) || compare(entry{it.Key(), it.Seq()}, sorted[i]) != 0 {
			t.Fatalf("forward scan: entry %d is %x/%d", i, it.Key(), it.Seq())
		}
		i++
	}
	if i != len(sorted) {
		t.Fatalf("forward scan: %d entries, want %d", i, len(sorted))
	}
	for ok := it.Last(); ok; ok = it.Prev() {
		i--
		if i < 0 || compare(entry{it.Key(), it.Seq()}, sorted[i]) != 0 {
			t.Fatalf("backward scan: entry %d is %x/%d", i, it.Key(), it.Seq())
		}
	}
	if i != 0 {
		t.Fatalf("backward scan stopped %d entries short", i)
	}
	// Seek (key, seq) is the first entry at or after it; SeekForPrev the
	// last at or before it.
	try := func(e entry) {
		pos, _ := slices.BinarySearchFunc(sorted, e, compare)
		if ok := it.Seek(e.key, e.seq); ok != (pos < len(sorted)) ||
			ok && compare(entry{it.Key(), it.Seq()}, sorted[pos]) != 0 {
			t.Fatalf("Seek(%x, %d): valid %v", e.key, e.seq, ok)
		}
		back, found := slices.BinarySearchFunc(sorted, e, compare)
		if !found {
			back--
		}
		if ok := it.SeekForPrev(e.key, e.seq); ok != (back >= 0) ||
			ok && compare(entry{it.Key(), it.Seq()}, sorted[back]) != 0 {
			t.Fatalf("SeekForPrev(%x, %d): valid %v", e.key, e.seq, ok)
		}
	}
	for j, e := range sorted {
		try(e)
		if j%3 == 0 {
			try(entry{e.key, base.MaxSeq})
			try(entry{append(slices.Clip(e.key), 1), 0})
			try(entry{e.key[:len(e.key)-1], 0})
			if _, _, ok := r.Get(e.key, base.MaxSeq); !ok {
				t.Fatalf("Get(%x) missed", e.key)
			}
		}
	}
	try(entry{nil, base.MaxSeq})
	try(entry{bytes.Repeat([]byte{0xff}, 12), 0})
}
