package skiplist

import (
	"testing"

	"github.com/godbbench/godbbench/memtable/memtabletest"
)

// BenchmarkNextAmidWork is one Next per op over a list of benchListLen
// entries inserted in random order, reading each entry's key and value and
// doing some work between steps (w0: none). Next prefetches the entry after
// the new one, so with work between steps its miss is hidden.
func BenchmarkNextAmidWork(b *testing.B) {
	l := benchList(b, benchListLen)
	defer l.Release()
	benchNext(b, l)
}

// BenchmarkNextInOrder is BenchmarkNextAmidWork over a list filled in key
// order, whose nodes lie in the arena in the order a scan reaches them.
func BenchmarkNextInOrder(b *testing.B) {
	keys := make([]int, benchListLen)
	for i := range keys {
		keys[i] = i
	}
	l := benchListOf(b, keys)
	defer l.Release()
	benchNext(b, l)
}

// benchNext runs the steps of BenchmarkNextAmidWork over l.
func benchNext(b *testing.B, l *List) {
	for _, w := range []struct {
		name string
		n    int
	}{{"w0", 0}, {"w100", 100}} {
		b.Run(w.name, func(b *testing.B) {
			it := l.NewIter()
			ok := false
			var x uint64
			for b.Loop() {
				if !ok {
					ok = it.First()
					continue
				}
				x += uint64(it.Key()[3]) + uint64(len(it.Value()))
				x = memtabletest.Work(x, w.n)
				ok = it.Next()
			}
			memtabletest.Sink = x
		})
	}
}
