package sst

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// entry is one table entry of the reference model.
type entry struct {
	key   []byte
	seq   uint64
	kind  base.Kind
	value []byte
}

func compareEntries(a, b entry) int {
	if c := bytes.Compare(a.key, b.key); c != 0 {
		return c
	}
	switch {
	case a.seq > b.seq:
		return -1
	case a.seq < b.seq:
		return 1
	}
	return 0
}

// randomEntries returns n entries in internal-key order with shared key
// prefixes, several versions of some keys, deletions and empty values.
func randomEntries(rng *rand.Rand, n int, maxValue int) []entry {
	es := make([]entry, 0, n)
	seen := map[string]bool{}
	// A third of the tables look like bottom-level ones: one version per
	// key, all at sequence number 0, so trailers repeat.
	bottom := rng.IntN(3) == 0
	for len(es) < n {
		var key []byte
		switch rng.IntN(3) {
		case 0:
			key = fmt.Appendf(nil, "key%08d", rng.IntN(n*4))
		case 1:
			key = make([]byte, rng.IntN(12))
			for i := range key {
				key[i] = byte(rng.IntN(4)) * 0x55
			}
		default:
			key = fmt.Appendf(nil, "prefix/%d/%x", rng.IntN(50), rng.Uint64()&0xfff)
		}
		versions := 1
		if !bottom && rng.IntN(8) == 0 {
			versions = 1 + rng.IntN(40)
		}
		for range versions {
			seq := rng.Uint64N(1 << 20)
			if bottom {
				seq = 0
				if seen[string(key)] {
					continue
				}
				seen[string(key)] = true
			}
			id := fmt.Sprintf("%s\x00%d", key, seq)
			if seen[id] {
				continue
			}
			seen[id] = true
			e := entry{key: key, seq: seq, kind: base.KindSet}
			if rng.IntN(8) == 0 {
				e.kind = base.KindMerge
			}
			if rng.IntN(10) == 0 {
				e.kind = base.KindDelete
			} else {
				e.value = make([]byte, rng.IntN(maxValue+1))
				for i := range e.value {
					e.value[i] = byte('a' + rng.IntN(3)) // compressible
				}
			}
			es = append(es, e)
		}
	}
	slices.SortFunc(es, compareEntries)
	return es
}

// writeTable writes es to a new file under dir and returns its path.
func writeTable(t testing.TB, dir string, es []entry, opts WriterOptions) (string, Properties) {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("t%d.sst", rand.Uint64()))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(f, opts)
	for _, e := range es {
		if err := w.Add(e.key, e.seq, e.kind, e.value); err != nil {
			t.Fatal(err)
		}
	}
	props, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path, props
}

// openFile opens path and returns it with its size.
func openFile(t testing.TB, path string) (*os.File, int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return f, st.Size()
}

func openTable(t testing.TB, path string, opts ReaderOptions) *Reader {
	t.Helper()
	f, size := openFile(t, path)
	r, err := Open(f, size, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type readMode struct {
	name  string
	mmap  bool
	cache int64
}

var readModes = []readMode{{"pread", false, 0}, {"mmap", true, 0}, {"pread+cache", false, 1 << 20}, {"mmap+cache", true, 1 << 20}, {"tinycache", false, 300 << 10}}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	comps := []Compression{CompressionNone, CompressionSnappy, CompressionLZ4, CompressionZstd}
	for round := range 12 {
		wo := WriterOptions{
			BlockSize:            []int{64, 512, 4096, 16384}[rng.IntN(4)],
			BlockRestartInterval: []int{1, 2, 16, 100}[rng.IntN(4)],
			BloomBitsPerKey:      []int{0, 1, 10}[rng.IntN(3)],
			Compression:          comps[round%len(comps)],
			CompressionLevel:     rng.IntN(3),
		}
		n := []int{0, 1, 5, 300, 3000}[rng.IntN(5)]
		if round < 4 {
			n = 2000
		}
		es := randomEntries(rng, n, []int{0, 10, 200, 3000}[rng.IntN(4)])
		path, props := writeTable(t, dir, es, wo)
		mode := readModes[round%len(readModes)]
		t.Run(fmt.Sprintf("%d/%+v/n=%d/%s", round, wo, n, mode.name), func(t *testing.T) {
			r := openTable(t, path, ReaderOptions{Mmap: mode.mmap, Cache: NewCache(mode.cache, -1), FileNum: uint64(round)})
			defer r.Close()
			checkProperties(t, r, props, es)
			checkScan(t, r, es)
			checkSeeks(t, rng, r, es)
			checkGets(t, rng, r, es)
		})
	}
}

func checkProperties(t *testing.T, r *Reader, written Properties, es []entry) {
	t.Helper()
	p := r.Properties()
	if p.NumEntries != uint64(len(es)) || p.FileSize != written.FileSize || p.FormatVersion != FormatVersion ||
		p.DataSize != written.DataSize || p.IndexSize != written.IndexSize || p.FilterSize != written.FilterSize {
		t.Fatalf("properties read %+v, written %+v", *p, written)
	}
	if len(es) > 0 && (!bytes.Equal(p.SmallestKey, es[0].key) || !bytes.Equal(p.LargestKey, es[len(es)-1].key)) {
		t.Fatalf("key range [%q, %q], want [%q, %q]", p.SmallestKey, p.LargestKey, es[0].key, es[len(es)-1].key)
	}
}

func checkEntry(t *testing.T, it *Iter, e entry, withValue bool) {
	t.Helper()
	if !it.Valid() || !bytes.Equal(it.Key(), e.key) || it.Seq() != e.seq || it.Kind() != e.kind {
		t.Fatalf("at (%q, %d, %d, valid %v, err %v), want (%q, %d, %d)", it.Key(), it.Seq(), it.Kind(), it.Valid(), it.Error(), e.key, e.seq, e.kind)
	}
	if withValue {
		v, err := it.Value()
		if err != nil || !bytes.Equal(v, e.value) {
			t.Fatalf("value of (%q, %d): %q, %v; want %q", e.key, e.seq, v, err, e.value)
		}
	}
}

func checkScan(t *testing.T, r *Reader, es []entry) {
	t.Helper()
	it := r.NewIter()
	defer it.Close()
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		checkEntry(t, it, es[i], i%3 != 0)
		i++
	}
	if it.Error() != nil || i != len(es) {
		t.Fatalf("forward scan saw %d of %d entries, err %v", i, len(es), it.Error())
	}
	i = len(es) - 1
	for ok := it.Last(); ok; ok = it.Prev() {
		checkEntry(t, it, es[i], i%2 == 0)
		i--
	}
	if it.Error() != nil || i != -1 {
		t.Fatalf("backward scan stopped at %d, err %v", i, it.Error())
	}
}

func checkSeeks(t *testing.T, rng *rand.Rand, r *Reader, es []entry) {
	t.Helper()
	it := r.NewIter()
	defer it.Close()
	for range 300 {
		var target []byte
		if len(es) > 0 && rng.IntN(2) == 0 {
			target = es[rng.IntN(len(es))].key
			if rng.IntN(2) == 0 {
				target = append(slices.Clip(target), byte(rng.IntN(256)))
			}
		} else {
			target = fmt.Appendf(nil, "key%08d", rng.IntN(20000))
		}
		ge := sort.Search(len(es), func(i int) bool { return bytes.Compare(es[i].key, target) >= 0 })
		if ge < len(es) {
			if !it.SeekGE(target) {
				t.Fatalf("SeekGE(%q) invalid (err %v), want %q", target, it.Error(), es[ge].key)
			}
			checkEntry(t, it, es[ge], true)
			// Step around to exercise block crossing in both directions.
			if ge > 0 {
				if !it.Prev() {
					t.Fatalf("Prev after SeekGE(%q) invalid", target)
				}
				checkEntry(t, it, es[ge-1], true)
				it.Next()
				checkEntry(t, it, es[ge], false)
			}
		} else if it.SeekGE(target) {
			t.Fatalf("SeekGE(%q) = %q, want invalid", target, it.Key())
		}
		if ge > 0 {
			if !it.SeekLT(target) {
				t.Fatalf("SeekLT(%q) invalid (err %v), want %q", target, it.Error(), es[ge-1].key)
			}
			checkEntry(t, it, es[ge-1], true)
			if ge < len(es) {
				it.Next()
				checkEntry(t, it, es[ge], true)
			}
		} else if it.SeekLT(target) {
			t.Fatalf("SeekLT(%q) = %q, want invalid", target, it.Key())
		}
	}
}

func checkGets(t *testing.T, rng *rand.Rand, r *Reader, es []entry) {
	t.Helper()
	for range 500 {
		var key []byte
		if len(es) > 0 && rng.IntN(4) != 0 {
			key = es[rng.IntN(len(es))].key
		} else {
			key = fmt.Appendf(nil, "miss%d", rng.IntN(1000))
		}
		snap := rng.Uint64N(1 << 20)
		if rng.IntN(3) == 0 {
			snap = base.MaxSeq
		}
		var want *entry
		for i := range es {
			if bytes.Equal(es[i].key, key) && es[i].seq <= snap {
				want = &es[i]
				break
			}
		}
		var got entry
		found, err := r.Get(key, snap, func(v []byte, k base.Kind, seq uint64) {
			got = entry{key: key, seq: seq, kind: k, value: slices.Clone(v)}
		})
		if err != nil {
			t.Fatal(err)
		}
		if found != (want != nil) {
			t.Fatalf("Get(%q, %d) found=%v, want %v", key, snap, found, want != nil)
		}
		if want != nil {
			if got.seq != want.seq || got.kind != want.kind || !bytes.Equal(got.value, want.value) {
				t.Fatalf("Get(%q, %d) = (%d, %d, %q), want (%d, %d, %q)", key, snap, got.seq, got.kind, got.value, want.seq, want.kind, want.value)
			}
			if !r.MayContain(key) {
				t.Fatalf("MayContain(%q) false for a present key", key)
			}
		}
	}
}
