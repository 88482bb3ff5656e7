package rtable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

type entry struct {
	key   []byte
	seq   uint64
	kind  base.Kind
	value []byte
}

// writeTable builds a table of es and opens it from a file.
func writeTable(t testing.TB, es []entry, opts WriterOptions) (*Reader, Properties) {
	t.Helper()
	r, err := openFile(t, buildBytes(t, es, opts))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, *r.Properties()
}

// openFile writes b to a temporary file and opens it as a table.
func openFile(t testing.TB, b []byte) (*Reader, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.rtable")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return Open(f, int64(len(b)), ReaderOptions{})
}

// sortEntries puts es in internal-key order and drops duplicate internal keys.
func sortEntries(es []entry) []entry {
	slices.SortFunc(es, func(a, b entry) int {
		return base.Compare(a.key, base.MakeTrailer(a.seq, a.kind), b.key, base.MakeTrailer(b.seq, b.kind))
	})
	return slices.CompactFunc(es, func(a, b entry) bool { return bytes.Equal(a.key, b.key) && a.seq == b.seq })
}

// dbBenchKey is db_bench's key for number n at keyLen bytes: the
// big-endian number, then '0' padding.
func dbBenchKey(n uint64, keyLen int) []byte {
	k := make([]byte, max(8, keyLen))
	binary.BigEndian.PutUint64(k, n)
	for i := 8; i < keyLen; i++ {
		k[i] = '0'
	}
	return k[:keyLen]
}

// shapes are the table contents the round-trip tests cover.
var shapes = []struct {
	name string
	gen  func(rng *rand.Rand) []entry
}{
	{"empty", func(*rand.Rand) []entry { return nil }},
	{"one", func(*rand.Rand) []entry { return []entry{{[]byte("k"), 0, base.KindSet, []byte("v")}} }},
	{"dbbench8-bottom", func(rng *rand.Rand) []entry {
		var es []entry
		for i := range 3000 {
			es = append(es, entry{dbBenchKey(uint64(i)*3, 8), 0, base.KindSet, fmt.Appendf(nil, "value%07d", i)})
		}
		return es
	}},
	{"dbbench16-random", func(rng *rand.Rand) []entry {
		var es []entry
		for range 5000 {
			v := make([]byte, 100)
			for j := range v {
				v[j] = byte(rng.IntN(256))
			}
			es = append(es, entry{dbBenchKey(rng.Uint64N(1<<40), 16), rng.Uint64N(1000), base.Kind(rng.IntN(3)), v})
		}
		return es
	}},
	{"versions", func(rng *rand.Rand) []entry {
		// Long runs of versions of few keys: the spline's window cannot
		// hold them and lookups fall back to the full search.
		var es []entry
		for range 4000 {
			n := rng.IntN(8)
			var v []byte
			if rng.IntN(3) > 0 {
				v = bytes.Repeat([]byte{byte(n)}, rng.IntN(300))
			}
			es = append(es, entry{dbBenchKey(uint64(n)*1000, 12), rng.Uint64N(1 << 50), base.Kind(rng.IntN(2)), v})
		}
		return es
	}},
	{"same-key", func(rng *rand.Rand) []entry {
		var es []entry
		for i := range 200 {
			es = append(es, entry{[]byte("same"), uint64(i), base.KindSet, []byte{byte(i)}})
		}
		return es
	}},
	{"compressible", func(rng *rand.Rand) []entry {
		// Values like db_bench's at --compression_ratio 0.5 (a random
		// half, repeated), some incompressible, some empty.
		var es []entry
		for i := range 2000 {
			v := make([]byte, rng.IntN(3)*60)
			for j := range v[:len(v)/2] {
				v[j] = byte(' ' + rng.IntN(95))
			}
			if i%3 == 0 {
				copy(v[len(v)/2:], v)
			}
			es = append(es, entry{dbBenchKey(uint64(i), 16), 0, base.KindSet, v})
		}
		return es
	}},
	{"dbbench-values", func(rng *rand.Rand) []entry {
		// Values cut one after another from a buffer of compressible
		// pieces, as db_bench's RandomGenerator cuts them, so that values
		// recur across the table: the dictionary codec's case.
		var es []entry
		vs := newValueSource(rng, 4<<10)
		for range 3000 {
			es = append(es, entry{dbBenchKey(rng.Uint64N(1<<20), 16), 0, base.KindSet, vs.next(50 + 50*rng.IntN(2))})
		}
		return es
	}},
	{"variable", func(rng *rand.Rand) []entry {
		var es []entry
		for range 3000 {
			k := make([]byte, rng.IntN(20))
			for j := range k {
				k[j] = "abc\x00\xff"[rng.IntN(5)]
			}
			es = append(es, entry{append([]byte("user/"), k...), rng.Uint64N(50), base.Kind(rng.IntN(3)), fmt.Appendf(nil, "%d", rng.IntN(1e9))})
		}
		return es
	}},
	{"wide-fixed", func(rng *rand.Rand) []entry {
		// Fixed 24-byte keys varying in 16 bytes: too wide to pack.
		var es []entry
		for range 2000 {
			k := make([]byte, 24)
			binary.BigEndian.PutUint64(k[4:], rng.Uint64())
			binary.BigEndian.PutUint64(k[12:], rng.Uint64())
			es = append(es, entry{k, 0, base.KindSet, k[:rng.IntN(24)]})
		}
		return es
	}},
}

// model answers the reader's questions from the sorted entries.
type model []entry

func (m model) lowerBound(k []byte) int {
	return sort.Search(len(m), func(i int) bool { return bytes.Compare(m[i].key, k) >= 0 })
}

func (m model) get(k []byte, snapshot uint64) (entry, bool) {
	for i := m.lowerBound(k); i < len(m) && bytes.Equal(m[i].key, k); i++ {
		if m[i].seq <= snapshot {
			return m[i], true
		}
	}
	return entry{}, false
}

// probeKeys are keys present, absent, shorter, longer and outside the
// table's range.
func probeKeys(rng *rand.Rand, es []entry) [][]byte {
	ps := [][]byte{nil, {}, {0}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []byte("user/"), []byte("same"), []byte("sam"), []byte("samf")}
	for range 300 {
		if len(es) == 0 {
			break
		}
		k := bytes.Clone(es[rng.IntN(len(es))].key)
		switch rng.IntN(5) {
		case 0:
			if len(k) > 0 {
				k[rng.IntN(len(k))] ^= byte(1 + rng.IntN(255))
			}
		case 1:
			if len(k) > 0 {
				k = k[:rng.IntN(len(k))]
			}
		case 2:
			k = append(k, byte(rng.IntN(256)))
		case 3:
			if len(k) > 0 {
				k[len(k)-1]++
			}
		}
		ps = append(ps, k)
	}
	return ps
}

func TestRoundTrip(t *testing.T) {
	for _, s := range shapes {
		for _, opts := range []WriterOptions{{}, {BloomBitsPerKey: 10}, {ValueCompression: ValueSnappy}, {ValueCompression: ValueDict}} {
			t.Run(fmt.Sprintf("%s/%+v", s.name, opts), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(1, 2))
				es := sortEntries(s.gen(rng))
				r, p := writeTable(t, es, opts)
				if p.NumEntries != uint64(len(es)) || r.Properties().NumEntries != p.NumEntries || r.Properties().FileSize != p.FileSize {
					t.Fatalf("properties: wrote %+v, read %+v, %d entries", p, *r.Properties(), len(es))
				}
				checkReader(t, r, model(es), rng)
			})
		}
	}
}

func checkReader(t *testing.T, r *Reader, m model, rng *rand.Rand) {
	t.Helper()
	// Forward and backward scans.
	it := r.NewIter()
	defer it.Close()
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		checkEntry(t, it, m, i)
		i++
	}
	if i != len(m) || it.Error() != nil {
		t.Fatalf("forward scan saw %d of %d entries: %v", i, len(m), it.Error())
	}
	for ok := it.Last(); ok; ok = it.Prev() {
		i--
		checkEntry(t, it, m, i)
	}
	if i != 0 {
		t.Fatalf("backward scan stopped at %d", i)
	}
	for _, k := range probeKeys(rng, m) {
		lb := m.lowerBound(k)
		if got := it.SeekGE(k); got != (lb < len(m)) {
			t.Fatalf("SeekGE(%q) = %v, want position %d of %d", k, got, lb, len(m))
		} else if got {
			checkEntry(t, it, m, lb)
		}
		if got := it.SeekLT(k); got != (lb > 0) {
			t.Fatalf("SeekLT(%q) = %v, want position %d", k, got, lb-1)
		} else if got {
			checkEntry(t, it, m, lb-1)
		}
		for _, snap := range []uint64{0, 10, 500, base.MaxSeq} {
			want, wantOK := m.get(k, snap)
			var gotV []byte
			var gotKind base.Kind
			var gotSeq uint64
			found, err := r.Get(k, snap, func(v []byte, kind base.Kind, seq uint64) {
				gotV, gotKind, gotSeq = bytes.Clone(v), kind, seq
			})
			if err != nil || found != wantOK {
				t.Fatalf("Get(%q, %d) = %v, %v; want %v", k, snap, found, err, wantOK)
			}
			if found && (!bytes.Equal(gotV, want.value) || gotKind != want.kind || gotSeq != want.seq) {
				t.Fatalf("Get(%q, %d) = %q %d %d, want %q %d %d", k, snap, gotV, gotKind, gotSeq, want.value, want.kind, want.seq)
			}
			if wantOK && !r.MayContain(k) {
				t.Fatalf("MayContain(%q) = false for a present key", k)
			}
		}
	}
}

func checkEntry(t *testing.T, it *Iter, m model, i int) {
	t.Helper()
	v, err := it.Value()
	if err != nil {
		t.Fatal(err)
	}
	e := m[i]
	if !bytes.Equal(it.Key(), e.key) || it.Seq() != e.seq || it.Kind() != e.kind || !bytes.Equal(v, e.value) {
		t.Fatalf("entry %d: got %q seq %d kind %d %q, want %q seq %d kind %d %q", i, it.Key(), it.Seq(), it.Kind(), v, e.key, e.seq, e.kind, e.value)
	}
}

// TestLayoutChoice checks which key and value encodings the writer picks.
func TestLayoutChoice(t *testing.T) {
	for _, c := range []struct {
		shape         string
		packed        bool
		keyWidth      int
		trailerWidth  int
		fixedValueLen bool
	}{
		{"dbbench8-bottom", true, 2, 0, true},
		{"dbbench16-random", true, 5, 2, true},
		{"same-key", true, 1, 2, true},
		{"variable", false, 0, 1, false},
		{"wide-fixed", false, 0, 0, false},
	} {
		for _, s := range shapes {
			if s.name != c.shape {
				continue
			}
			es := sortEntries(s.gen(rand.New(rand.NewPCG(1, 2))))
			r, p := writeTable(t, es, WriterOptions{})
			if p.PackedKeys != c.packed || p.KeyWidth != c.keyWidth || p.TrailerWidth != c.trailerWidth || (r.groupStarts == nil) != c.fixedValueLen {
				t.Errorf("%s: packed %v width %d trailers %d fixed values %v, want %+v", s.name, p.PackedKeys, p.KeyWidth, p.TrailerWidth, r.groupStarts == nil, c)
			}
		}
	}
}

func TestWriterRejectsMisorder(t *testing.T) {
	w := NewWriter(&bytes.Buffer{}, WriterOptions{})
	if err := w.Add([]byte("b"), 5, base.KindSet, nil); err != nil {
		t.Fatal(err)
	}
	for _, e := range []entry{{[]byte("a"), 1, base.KindSet, nil}, {[]byte("b"), 5, base.KindSet, nil}, {[]byte("b"), 6, base.KindSet, nil}} {
		if err := w.Add(e.key, e.seq, e.kind, nil); err == nil {
			t.Fatalf("Add(%q, %d) after (b, 5) succeeded", e.key, e.seq)
		}
	}
	if err := w.Add([]byte("c"), 1, base.Kind(7), nil); err == nil {
		t.Fatal("Add with kind 7 succeeded")
	}
}
