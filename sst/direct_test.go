package sst

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/directio"
)

// TestDirectReads reads a table opened with O_DIRECT, with and without a
// block cache: a full scan and a Get of every key find the entries
// written, and the reader reads through the aligned reader.
func TestDirectReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	es := randomEntries(rng, 4000, 300)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 1024, Compression: CompressionSnappy})
	for _, cacheSize := range []int64{0, 1 << 20} {
		f, err := directio.Open(path)
		if err != nil {
			t.Skipf("no direct reads here: %v", err)
		}
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		opts := ReaderOptions{Direct: true}
		if cacheSize > 0 {
			opts.Cache = NewCache(cacheSize, 0)
		}
		r, err := Open(f, st.Size(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.ra.(*directio.ReaderAt); !ok {
			t.Fatalf("a direct reader reads through a %T", r.ra)
		}
		it := r.NewIter()
		i := 0
		for ok := it.First(); ok; ok = it.Next() {
			checkEntry(t, it, es[i], true)
			i++
		}
		if it.Error() != nil || i != len(es) {
			t.Fatalf("scan saw %d of %d entries, err %v", i, len(es), it.Error())
		}
		it.Close()
		for j, e := range es {
			if j > 0 && bytes.Equal(es[j-1].key, e.key) {
				continue // Get finds the newest version only
			}
			var got []byte
			found, err := r.Get(e.key, e.seq, func(v []byte, _ base.Kind, _ uint64) { got = append(got[:0], v...) })
			if err != nil || !found || !bytes.Equal(got, e.value) {
				t.Fatalf("Get(%q) = %v, %v, value of %d bytes; want the %d written", e.key, found, err, len(got), len(e.value))
			}
		}
		r.Close()
	}
}
