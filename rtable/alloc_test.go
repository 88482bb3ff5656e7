package rtable

import (
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestZeroAllocs checks that Get, every iterator move, Key, Value and
// AppendBatch (into a grown buffer) allocate nothing, for packed and
// variable keys.
func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, name := range []string{"dbbench16-random", "variable", "versions", "compressible", "dbbench-values"} {
		for _, s := range shapes {
			if s.name != name {
				continue
			}
			es := sortEntries(s.gen(rand.New(rand.NewPCG(9, 9))))
			codec := ValueSnappy
			if name == "dbbench-values" {
				codec = ValueDict
			}
			r, p := writeTable(t, es, WriterOptions{BloomBitsPerKey: 10, ValueCompression: codec})
			if p.ValueCodec != codec {
				t.Fatalf("%s: codec %d, want %d", name, p.ValueCodec, codec)
			}
			keys := probeKeys(rand.New(rand.NewPCG(1, 1)), es)
			it := r.NewIter()
			sink := 0
			fn := func(v []byte, _ base.Kind, _ uint64) { sink += len(v) }
			i := 0
			var batch []byte
			ops := map[string]func(){
				"Get": func() {
					if _, err := r.Get(keys[i%len(keys)], base.MaxSeq, fn); err != nil {
						t.Fatal(err)
					}
					i++
				},
				"SeekGE+Next": func() {
					it.SeekGE(keys[i%len(keys)])
					it.Next()
					v, _ := it.Value()
					sink += len(it.Key()) + len(v) + int(it.Seq())
					i++
				},
				"SeekLT+Prev": func() {
					it.SeekLT(keys[i%len(keys)])
					it.Prev()
					v, _ := it.Value()
					sink += len(it.Key()) + len(v) + int(it.Kind())
					i++
				},
				"SeekGE+AppendBatch": func() {
					it.SeekGE(keys[i%len(keys)])
					batch, _, _, _ = it.AppendBatch(batch[:0], BatchOptions{MaxEntries: 64, MaxBytes: 32 << 10, Values: true})
					i++
				},
			}
			for op, f := range ops {
				f() // grow the iterator's key buffer
				if a := testing.AllocsPerRun(500, f); a != 0 {
					t.Errorf("%s %s: %.1f allocations per run", name, op, a)
				}
			}
			it.Close()
		}
	}
}
