package rtable

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// valueSource cuts values one after another from a buffer of 100-byte
// pieces, each 50 random printable bytes twice, wrapping to the start
// when a value would run past the end: db_bench's RandomGenerator at
// --compression_ratio=0.5 with a buffer of the given size.
type valueSource struct {
	buf []byte
	pos int
}

func newValueSource(rng *rand.Rand, size int) *valueSource {
	s := &valueSource{}
	for len(s.buf) < size {
		var half [50]byte
		for i := range half {
			half[i] = byte(' ' + rng.IntN(95))
		}
		s.buf = append(append(s.buf, half[:]...), half[:]...)
	}
	return s
}

func (s *valueSource) next(n int) []byte {
	if s.pos+n > len(s.buf) {
		s.pos = 0
	}
	s.pos += n
	return s.buf[s.pos-n : s.pos]
}

// TestDictChoice checks that a ValueDict writer keeps the dictionary where
// values recur across the table, making it far smaller than per-value
// snappy, and falls back to snappy where they do not.
func TestDictChoice(t *testing.T) {
	for _, s := range shapes {
		if s.name != "dbbench-values" && s.name != "dbbench16-random" {
			continue
		}
		es := sortEntries(s.gen(rand.New(rand.NewPCG(7, 7))))
		_, snappy := writeTable(t, es, WriterOptions{ValueCompression: ValueSnappy})
		r, dict := writeTable(t, es, WriterOptions{ValueCompression: ValueDict})
		checkReader(t, r, model(es), rand.New(rand.NewPCG(1, 1)))
		if s.name == "dbbench16-random" {
			if dict.ValueCodec != ValueSnappy || dict.FileSize != snappy.FileSize || dict.DictBytes != 0 {
				t.Errorf("%s: codec %d, %d bytes (dictionary %d), want snappy's %d", s.name, dict.ValueCodec, dict.FileSize, dict.DictBytes, snappy.FileSize)
			}
			continue
		}
		if dict.ValueCodec != ValueDict || r.Properties().ValueCodec != ValueDict || dict.FileSize*3 > snappy.FileSize {
			t.Errorf("%s: codec %d, %d bytes (dictionary %d) against snappy's %d", s.name, dict.ValueCodec, dict.FileSize, dict.DictBytes, snappy.FileSize)
		}
		if r.Properties().DictBytes != dict.DictBytes || dict.DictBytes == 0 || dict.DictBytes > 4<<10 {
			t.Errorf("%s: dictionary of %d bytes (read %d) for a 4 KiB value buffer", s.name, dict.DictBytes, r.Properties().DictBytes)
		}
	}
}

// TestDictBeyondSample writes more values than the writer samples, from a
// buffer like db_bench's, so that most values are coded as they stream
// after the dictionary was chosen, and reads every one back.
func TestDictBeyondSample(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10 MiB of values")
	}
	rng := rand.New(rand.NewPCG(3, 3))
	vs := newValueSource(rng, 1<<20)
	n := DictSampleBytes/50 + 30000
	es := make([]entry, n)
	for i := range es {
		es[i] = entry{dbBenchKey(uint64(i), 8), 0, base.KindSet, vs.next(50)}
	}
	r, p := writeTable(t, es, WriterOptions{BloomBitsPerKey: 10, ValueCompression: ValueDict})
	if p.ValueCodec != ValueDict || p.ValueBytes > p.RawValueSize/5 {
		t.Fatalf("codec %d, %d value bytes for %d raw", p.ValueCodec, p.ValueBytes, p.RawValueSize)
	}
	// Every value is one whole copy, its offset at the dictionary's
	// width: one stored length, so no value offsets.
	if r.groupStarts != nil || r.valueLen != 1+uint64(dictOffsetBytes(int(p.DictBytes))) {
		t.Fatalf("values stored at varying lengths (fixed length %d, dictionary %d bytes)", r.valueLen, p.DictBytes)
	}
	it := r.NewIter()
	defer it.Close()
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.Value()
		if err != nil || !bytes.Equal(v, es[i].value) {
			t.Fatalf("entry %d: value %q, %v; want %q", i, v, err, es[i].value)
		}
		i++
	}
	if i != n {
		t.Fatalf("read %d of %d entries", i, n)
	}
	for range 1000 {
		e := es[rng.IntN(n)]
		found, err := r.Get(e.key, base.MaxSeq, func(v []byte, _ base.Kind, _ uint64) {
			if !bytes.Equal(v, e.value) {
				t.Fatalf("Get(%x): %q, want %q", e.key, v, e.value)
			}
		})
		if !found || err != nil {
			t.Fatalf("Get(%x): found %v, %v", e.key, found, err)
		}
	}
}

// FuzzDictValue decodes arbitrary operations against an arbitrary
// dictionary, which must never panic, and codes arbitrary values against
// it, which must decode to themselves.
func FuzzDictValue(f *testing.F) {
	f.Add([]byte("abcdefghij"), []byte{0x15, 0x00, 0x06, 'x', 'y', 'z'}, []byte("xxabcdefghyy"))
	f.Add([]byte{}, []byte{0x03, 0x80}, []byte{})
	f.Fuzz(func(t *testing.T, dict, ops, v []byte) {
		if len(dict) > 1<<16 {
			return
		}
		out, what := decodeDictValue(nil, ops, dict)
		if what == "" && len(out) > len(ops)/2*len(dict)+len(ops) {
			t.Fatalf("%d bytes of operations gave %d bytes", len(ops), len(out))
		}
		if sv, ok := dictSingleCopy(ops, dict); ok && (what != "" || !bytes.Equal(sv, out)) {
			t.Fatalf("operations %x: one copy %q, decoded %q (%s)", ops, sv, out, what)
		}
		e := newDictEncoder()
		e.add(dict)
		c := e.encode(nil, v)
		out, what = decodeDictValue(nil, c, dict)
		if what != "" || !bytes.Equal(out, v) {
			t.Fatalf("%q coded as %x decodes to %q (%s)", v, c, out, what)
		}
		// The same operations with offsets at the dictionary's width.
		p := padCopies(nil, c, dictOffsetBytes(len(dict)))
		if out, what := decodeDictValue(nil, p, dict); what != "" || !bytes.Equal(out, v) {
			t.Fatalf("%q coded as %x, padded to %x, decodes to %q (%s)", v, c, p, out, what)
		}
	})
}
