package rtable

import (
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// FuzzDecode decodes arbitrary bytes as a table with the checksums off, so
// that the structure checks behind them are what is tested, and then reads
// everything every way: it must never panic.
func FuzzDecode(f *testing.F) {
	for _, g := range goldenTables {
		f.Add(g.bytes(f), []byte("apple"))
	}
	for _, s := range shapes[1:] {
		es := sortEntries(s.gen(rand.New(rand.NewPCG(5, 6))))
		f.Add(buildBytes(f, es[:min(len(es), 40)], WriterOptions{BloomBitsPerKey: 10}), es[0].key)
	}
	f.Fuzz(func(t *testing.T, data, key []byte) {
		r := &Reader{data: data, name: "fuzz"}
		if r.init(false) != nil {
			return
		}
		fn := func([]byte, base.Kind, uint64) {}
		it := r.NewIter()
		for ok := it.First(); ok; ok = it.Next() {
			it.Value()
			it.Seq()
			r.Get(it.Key(), base.MaxSeq, fn)
		}
		for ok := it.Last(); ok; ok = it.Prev() {
			it.Key()
		}
		var buf []byte
		for ok, more := it.First(), true; ok && more; ok = it.Next() {
			buf, _, more = it.AppendKeys(buf[:0], BatchOptions{MaxEntries: 7})
		}
		for ok, more := it.First(), true; ok && more; ok = it.Next() {
			buf, _, more, _ = it.AppendBatch(buf[:0], BatchOptions{MaxEntries: 7, Values: true})
		}
		it.SeekGE(key)
		it.Key()
		it.SeekLT(key)
		it.Key()
		r.Get(key, base.MaxSeq, fn)
		r.MayContain(key)
		r.MayContainPrefix(key)
		for _, fr := range r.RangeDels().Fragments() {
			r.Get(fr.Start, base.MaxSeq, fn)
		}
	})
}

// FuzzSpline decodes arbitrary bytes as a key index and predicts with it.
func FuzzSpline(f *testing.F) {
	sb := newSplineBuilder(SplineError)
	for i := range uint64(100) {
		sb.add(i*i, i)
	}
	f.Add(sb.finish(nil), uint64(100), uint64(50))
	f.Fuzz(func(t *testing.T, data []byte, n, x uint64) {
		s, err := decodeSpline(data, n)
		if err != nil {
			return
		}
		x = max(s.xs[0], min(x, s.xs[len(s.xs)-1]))
		if p := s.predict(x); p >= n {
			t.Fatalf("prediction %d outside %d entries", p, n)
		}
	})
}
