package skiplist

import "testing"

var scanSink uint64

// work stands for what a DB iterator does between two steps of a memtable
// iterator (the merge's comparisons, the tables' steps): dependent
// arithmetic that touches no memory, n multiply-adds of about 1 ns each.
func work(x uint64, n int) uint64 {
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

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
				x = work(x, w.n)
				ok = it.Next()
			}
			scanSink = x
		})
	}
}
