package skiplist

import (
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// benchList is a list of db_bench's default shape: n 16-byte keys (prevKey)
// in random order with 100-byte values, in a 64 MiB memtable's chunks.
func benchList(b *testing.B, n int) *List {
	return benchListOf(b, rand.New(rand.NewPCG(1, 2)).Perm(n))
}

// benchListOf is benchList with the keys prevKey(k) of keys, added in that
// order.
func benchListOf(b *testing.B, keys []int) *List {
	l := NewSized(64 << 20)
	value := make([]byte, 100)
	for i, k := range keys {
		if err := l.Add(uint64(i+1), base.KindSet, prevKey(k), value); err != nil {
			b.Fatal(err)
		}
	}
	return l
}

const benchListLen = 400_000

// BenchmarkSeek is one random Seek per op into a list of benchListLen
// entries.
func BenchmarkSeek(b *testing.B) {
	l := benchList(b, benchListLen)
	defer l.Release()
	it := l.NewIter()
	keys := make([][]byte, 1<<16)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range keys {
		keys[i] = prevKey(rng.IntN(benchListLen))
	}
	defer reportCPU(b, processCPU())
	for i := 0; b.Loop(); i++ {
		if !it.Seek(keys[i&(len(keys)-1)], base.MaxSeq) {
			b.Fatal("Seek missed")
		}
	}
}

// BenchmarkPrev is one Prev per op, scanning a list of benchListLen
// entries backwards from its end again and again.
func BenchmarkPrev(b *testing.B) {
	l := benchList(b, benchListLen)
	defer l.Release()
	it := l.NewIter()
	ok := false
	defer reportCPU(b, processCPU())
	for b.Loop() {
		if !ok {
			ok = it.Last()
			continue
		}
		ok = it.Prev()
	}
}

// processCPU is the process's user and system CPU time in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// reportCPU reports the CPU time per op since start as cpu-ns/op, which
// unlike ns/op does not count waiting for a core on a loaded machine.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkAdd is one Add per op of db_bench's default shape in random
// order, into lists of benchListLen entries (a new one each time one is
// full), so that it counts the upper index's builds.
func BenchmarkAdd(b *testing.B) {
	perm := rand.New(rand.NewPCG(1, 2)).Perm(benchListLen)
	value := make([]byte, 100)
	keys := make([][]byte, len(perm))
	for i, k := range perm {
		keys[i] = prevKey(k)
	}
	var l *List
	defer func() { l.Release() }()
	defer reportCPU(b, processCPU())
	for i := 0; b.Loop(); i++ {
		j := i % len(keys)
		if j == 0 {
			if l != nil {
				l.Release()
			}
			l = NewSized(64 << 20)
		}
		if err := l.Add(uint64(i+1), base.KindSet, keys[j], value); err != nil {
			b.Fatal(err)
		}
	}
}
