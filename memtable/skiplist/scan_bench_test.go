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
