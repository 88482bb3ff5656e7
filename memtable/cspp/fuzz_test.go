package cspp

import (
	"bytes"
	"sort"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// FuzzInsertOrder splits the input into keys (a 0xff byte ends a key; the
// byte after it, when even, repeats the previous key as a new version),
// inserts them with increasing sequences in input order, and checks the full
// scan both ways, Seek and Get against a sorted model.
func FuzzInsertOrder(f *testing.F) {
	f.Add([]byte("a\xffab\xff\xff\x00abc\xffb"))
	f.Add([]byte("\xff\xff\x02\xff\x04"))
	f.Add(bytes.Repeat([]byte("xy\xff"), 40))
	f.Add([]byte("\x00\x01\x02\xff\x00\x01\xff\x00\xff\xffzz"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := New(1 << 20)
		var m refModel
		var prev []byte
		seq := uint64(0)
		add := func(k []byte) {
			seq++
			v := string(k) + "!"
			if err := tr.Add(seq, base.KindSet, k, []byte(v)); err != nil {
				t.Fatalf("Add(%q): %v", k, err)
			}
			m = append(m, record{string(k), seq, base.KindSet, v})
			prev = k
		}
		for len(data) > 0 && len(m) < 2000 {
			i := bytes.IndexByte(data, 0xff)
			if i < 0 {
				add(data)
				break
			}
			add(data[:i])
			data = data[i+1:]
			if len(data) > 0 && data[0]%2 == 0 {
				add(prev)
				data = data[1:]
			}
		}
		sort.Slice(m, m.less)
		it := tr.NewIter()
		ok := it.First()
		for i := range m {
			checkAt(t, "Next", it, ok, m, i)
			ok = it.Next()
		}
		checkAt(t, "end", it, ok, m, len(m))
		ok = it.Last()
		for i := len(m) - 1; i >= 0; i-- {
			checkAt(t, "Prev", it, ok, m, i)
			ok = it.Prev()
		}
		for _, r := range m {
			v, _, found := tr.Get([]byte(r.key), r.seq)
			if !found || string(v) != r.value {
				t.Fatalf("Get(%q,%d) = %q %v", r.key, r.seq, v, found)
			}
			checkAt(t, "Seek", it, it.Seek([]byte(r.key), r.seq), m, m.seek(r.key, r.seq))
			probe := r.key + "\x00"
			checkAt(t, "Seek probe", it, it.Seek([]byte(probe), base.MaxSeq), m, m.seek(probe, base.MaxSeq))
			checkAt(t, "SeekForPrev probe", it, it.SeekForPrev([]byte(probe), 0), m, m.seekForPrev(probe, 0))
		}
	})
}
