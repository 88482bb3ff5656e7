package cspp

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/memtabletest"
)

func TestConformance(t *testing.T) {
	memtabletest.RunRep(t, func() memtable.Rep { return New(16 << 20) })
	memtabletest.RunFull(t, func() memtable.Rep { return New(1 << 20) })
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"cspp", `CSPPMemTab:{"mem_cap":"1M"}`} {
		r, err := memtable.New(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Add(1, base.KindSet, []byte("k"), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
}

// record is one entry of the reference model.
type record struct {
	key   string
	seq   uint64
	kind  base.Kind
	value string
}

// refModel is a sorted list of records in internal-key order.
type refModel []record

func (m refModel) less(i, j int) bool {
	if m[i].key != m[j].key {
		return m[i].key < m[j].key
	}
	return m[i].seq > m[j].seq
}

// seek is the index of the first record >= (key, seq).
func (m refModel) seek(key string, seq uint64) int {
	return sort.Search(len(m), func(i int) bool {
		return m[i].key > key || m[i].key == key && m[i].seq <= seq
	})
}

// seekForPrev is the index of the last record <= (key, seq), or -1.
func (m refModel) seekForPrev(key string, seq uint64) int {
	return sort.Search(len(m), func(i int) bool {
		return m[i].key > key || m[i].key == key && m[i].seq < seq
	}) - 1
}

func (m refModel) get(key string, snap uint64) (record, bool) {
	i := m.seek(key, snap)
	if i < len(m) && m[i].key == key {
		return m[i], true
	}
	return record{}, false
}

// keyGen produces keys that stress the trie: prefixes of one another, the
// empty key, long shared prefixes, binary bytes, keys longer than a direct
// node's fan-out.
func keyGen(rng *rand.Rand) []byte {
	switch rng.IntN(7) {
	case 0:
		return nil
	case 1: // short binary
		k := make([]byte, rng.IntN(4))
		for i := range k {
			k[i] = byte(rng.IntN(4)) * 85 // 0, 85, 170, 255
		}
		return k
	case 2: // long shared prefix, varied tail
		k := bytes.Repeat([]byte{'p'}, 40)
		return append(k, byte(rng.IntN(3)), byte(rng.IntN(256)))[:40+rng.IntN(3)]
	case 3: // prefixes of one long key
		long := []byte("abcdefghijklmnopqrstuvwxyz0123456789")
		return long[:rng.IntN(len(long)+1)]
	case 4: // random 16 bytes: many children at the top
		k := make([]byte, 16)
		for i := range k {
			k[i] = byte(rng.Uint32())
		}
		return k
	case 5: // dense 2-byte space: direct and 48-wide nodes
		return []byte{byte(rng.IntN(3)), byte(rng.IntN(256))}
	default:
		return fmt.Appendf(nil, "user%04d", rng.IntN(300))
	}
}

// fillRandom adds n entries with unique sequences (shuffled order, so
// versions of a key arrive out of order too) and returns the sorted model.
func fillRandom(t testing.TB, tr *Trie, rng *rand.Rand, n int) refModel {
	seqs := rng.Perm(n)
	var m refModel
	seen := map[string]map[uint64]bool{}
	for i := 0; i < n; i++ {
		k := keyGen(rng)
		seq := uint64(seqs[i]) + 1
		if seen[string(k)] == nil {
			seen[string(k)] = map[uint64]bool{}
		}
		seen[string(k)][seq] = true
		kind := base.KindSet
		if rng.IntN(5) == 0 {
			kind = base.KindDelete
		}
		v := fmt.Sprintf("v%d-%x", seq, k)
		v = v[:min(len(v), rng.IntN(8))]
		if err := tr.Add(seq, kind, k, []byte(v)); err != nil {
			t.Fatalf("Add(%q, %d): %v", k, seq, err)
		}
		m = append(m, record{string(k), seq, kind, v})
	}
	sort.Slice(m, m.less)
	return m
}

func checkAt(t *testing.T, op string, it memtable.Iter, ok bool, m refModel, i int) {
	t.Helper()
	want := i >= 0 && i < len(m)
	if ok != want || it.Valid() != want {
		t.Fatalf("%s: valid=%v/%v, want %v (index %d of %d)", op, ok, it.Valid(), want, i, len(m))
	}
	if !want {
		return
	}
	r := m[i]
	if string(it.Key()) != r.key || it.Seq() != r.seq || it.Kind() != r.kind || string(it.Value()) != r.value {
		t.Fatalf("%s: at (%q,%d,%d,%q), want (%q,%d,%d,%q)", op,
			it.Key(), it.Seq(), it.Kind(), it.Value(), r.key, r.seq, r.kind, r.value)
	}
}

func TestModel(t *testing.T) {
	for round := 0; round < 4; round++ {
		rng := rand.New(rand.NewPCG(uint64(round), 1))
		tr := New(32 << 20)
		m := fillRandom(t, tr, rng, 5000)
		if tr.Len() != int64(len(m)) {
			t.Fatalf("Len = %d, want %d", tr.Len(), len(m))
		}
		it := tr.NewIter()
		ok := it.First()
		for i := range m {
			checkAt(t, "Next", it, ok, m, i)
			ok = it.Next()
		}
		checkAt(t, "Next past end", it, ok, m, len(m))
		ok = it.Last()
		for i := len(m) - 1; i >= 0; i-- {
			checkAt(t, "Prev", it, ok, m, i)
			ok = it.Prev()
		}
		checkAt(t, "Prev past start", it, ok, m, -1)
		for q := 0; q < 3000; q++ {
			k := keyGen(rng)
			seq := uint64(rng.IntN(5200))
			if q%7 == 0 {
				seq = base.MaxSeq
			}
			r, found := m.get(string(k), seq)
			v, kind, ok := tr.Get(k, seq)
			if ok != found || ok && (string(v) != r.value || kind != r.kind) {
				t.Fatalf("Get(%q,%d) = %q,%d,%v want %+v,%v", k, seq, v, kind, ok, r, found)
			}
			i := m.seek(string(k), seq)
			checkAt(t, fmt.Sprintf("Seek(%q,%d)", k, seq), it, it.Seek(k, seq), m, i)
			// Walk a little both ways from the seek position.
			for s := 0; s < 3 && it.Valid(); s++ {
				i++
				checkAt(t, "Next after Seek", it, it.Next(), m, i)
			}
			if it.Valid() {
				for s := 0; s < 5 && it.Valid(); s++ {
					i--
					checkAt(t, "Prev after Next", it, it.Prev(), m, i)
				}
			}
			i = m.seekForPrev(string(k), seq)
			checkAt(t, fmt.Sprintf("SeekForPrev(%q,%d)", k, seq), it, it.SeekForPrev(k, seq), m, i)
			for s := 0; s < 3 && it.Valid(); s++ {
				i--
				checkAt(t, "Prev after SeekForPrev", it, it.Prev(), m, i)
			}
		}
	}
}

func TestEmptyKeyAndEmptyTrie(t *testing.T) {
	tr := New(0)
	it := tr.NewIter()
	if it.First() || it.Last() || it.Seek(nil, base.MaxSeq) || it.SeekForPrev([]byte{0xff}, 0) {
		t.Fatal("empty trie iterator is valid")
	}
	if _, _, ok := tr.Get(nil, base.MaxSeq); ok {
		t.Fatal("Get on empty trie found a key")
	}
	for i, k := range []string{"", "a", "", "ab"} {
		if err := tr.Add(uint64(i+1), base.KindSet, []byte(k), []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if v, _, ok := tr.Get(nil, base.MaxSeq); !ok || string(v) != "2" {
		t.Fatalf("Get(empty) = %q %v", v, ok)
	}
	if v, _, ok := tr.Get([]byte{}, 1); !ok || string(v) != "0" {
		t.Fatalf("Get(empty, 1) = %q %v", v, ok)
	}
	var got []string
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, fmt.Sprintf("%q@%d", it.Key(), it.Seq()))
	}
	if want := `""@3 ""@1 "a"@2 "ab"@4`; fmt.Sprint(got) != "["+want+"]" {
		t.Fatalf("scan = %v, want %s", got, want)
	}
}

func TestManyVersionsSnapshots(t *testing.T) {
	tr := New(8 << 20)
	key := []byte("hot")
	const n = 3000
	// Even sequences first in ascending order (append path), odd ones after in
	// descending order (copy-on-write insertion path).
	for s := uint64(2); s <= n; s += 2 {
		if err := tr.Add(s, base.KindSet, key, fmt.Appendf(nil, "%d", s)); err != nil {
			t.Fatal(err)
		}
	}
	for i := n - 1; i >= 1; i -= 2 {
		s := uint64(i)
		kind := base.KindSet
		if s%3 == 0 {
			kind = base.KindDelete
		}
		if err := tr.Add(s, kind, key, fmt.Appendf(nil, "%d", s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Add(10, base.KindSet, key, nil); err == nil {
		t.Fatal("duplicate sequence accepted")
	}
	for snap := uint64(0); snap <= n+1; snap++ {
		v, kind, ok := tr.Get(key, snap)
		if snap == 0 {
			if ok {
				t.Fatal("version visible at snapshot 0")
			}
			continue
		}
		want := min(snap, n)
		wantKind := base.KindSet
		if want%2 == 1 && want%3 == 0 {
			wantKind = base.KindDelete
		}
		if !ok || string(v) != fmt.Sprint(want) || kind != wantKind {
			t.Fatalf("Get at %d = %q,%d,%v want %d", snap, v, kind, ok, want)
		}
	}
	it := tr.NewIter()
	s := uint64(n)
	for ok := it.First(); ok; ok = it.Next() {
		if it.Seq() != s {
			t.Fatalf("version order: got %d want %d", it.Seq(), s)
		}
		s--
	}
	if s != 0 {
		t.Fatalf("scan stopped at %d", s)
	}
}

func TestFull(t *testing.T) {
	tr := New(64 << 10)
	var accepted int
	for i := 0; ; i++ {
		err := tr.Add(uint64(i+1), base.KindSet, fmt.Appendf(nil, "key-%07d", i*7919%100003), make([]byte, 50))
		if errors.Is(err, memtable.ErrFull) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		accepted++
	}
	if accepted == 0 || tr.Len() != int64(accepted) {
		t.Fatalf("accepted %d, Len %d", accepted, tr.Len())
	}
	if u := tr.ApproximateMemoryUsage(); u > 64<<10+256 {
		t.Fatalf("usage %d exceeds capacity", u)
	}
	n := 0
	for it, ok := tr.NewIter(), false; ; n++ {
		if n == 0 {
			ok = it.First()
		} else {
			ok = it.Next()
		}
		if !ok {
			break
		}
	}
	if n != accepted {
		t.Fatalf("scan found %d of %d", n, accepted)
	}
}

// TestConcurrentWritersReaders hammers one trie from writers that share a
// key space with disjoint sequence ranges while readers scan and look up;
// run with -race.
func TestConcurrentWritersReaders(t *testing.T) {
	const writers, readers, per = 4, 2, 3000
	tr := New(64 << 20)
	var wg sync.WaitGroup
	models := make([]refModel, writers)
	stop := make(chan struct{})
	var rwg sync.WaitGroup
	errc := make(chan error, readers)
	for r := 0; r < readers; r++ {
		rwg.Add(1)
		go func(r int) {
			defer rwg.Done()
			it := tr.NewIter()
			for {
				select {
				case <-stop:
					return
				default:
				}
				var prev []byte
				var prevSeq uint64
				first := true
				for ok := it.First(); ok; ok = it.Next() {
					k, s := it.Key(), it.Seq()
					if !first {
						c := bytes.Compare(prev, k)
						if c > 0 || c == 0 && prevSeq <= s {
							errc <- fmt.Errorf("order: (%q,%d) before (%q,%d)", prev, prevSeq, k, s)
							return
						}
					}
					if want := fmt.Sprintf("%d", s); string(it.Value()) != want {
						errc <- fmt.Errorf("value of (%q,%d) = %q", k, s, it.Value())
						return
					}
					prev = append(prev[:0], k...)
					prevSeq, first = s, false
				}
			}
		}(r)
	}
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for i := 0; i < per; i++ {
				k := keyGen(rng)
				seq := uint64(w*per+i) + 1
				v := fmt.Sprintf("%d", seq)
				if err := tr.Add(seq, base.KindSet, k, []byte(v)); err != nil {
					t.Error(err)
					return
				}
				models[w] = append(models[w], record{string(k), seq, base.KindSet, v})
				if got, _, ok := tr.Get(k, seq); !ok || string(got) != v {
					t.Errorf("Get own write (%q,%d) = %q,%v", k, seq, got, ok)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	rwg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	scanMergedModels(t, tr, models)
}

// scanMergedModels merges the writers' models, checks a full forward scan
// of tr against them, and returns the merged, sorted model.
func scanMergedModels(t *testing.T, tr *Trie, models []refModel) refModel {
	t.Helper()
	var m refModel
	for _, wm := range models {
		m = append(m, wm...)
	}
	sort.Slice(m, m.less)
	it := tr.NewIter()
	ok := it.First()
	for i := range m {
		checkAt(t, "final scan", it, ok, m, i)
		ok = it.Next()
	}
	checkAt(t, "final scan end", it, ok, m, len(m))
	return m
}

// TestLongKeys covers suffixes longer than one compressed path (chains of
// one-child nodes) and splits inside them.
func TestLongKeys(t *testing.T) {
	tr := New(8 << 20)
	long := make([]byte, 2*maxZpath+100)
	for i := range long {
		long[i] = byte(i * 7)
	}
	keys := [][]byte{
		long,
		long[:maxZpath],
		long[:maxZpath+1],
		long[:maxZpath+2],
		append(append([]byte{}, long[:maxZpath+50]...), 0xff),
		long[:10],
	}
	var m refModel
	for i, k := range keys {
		v := fmt.Sprint(i)
		if err := tr.Add(uint64(i+1), base.KindSet, k, []byte(v)); err != nil {
			t.Fatal(err)
		}
		m = append(m, record{string(k), uint64(i + 1), base.KindSet, v})
	}
	sort.Slice(m, m.less)
	it := tr.NewIter()
	ok := it.Last()
	for i := len(m) - 1; i >= 0; i-- {
		checkAt(t, "Prev", it, ok, m, i)
		ok = it.Prev()
	}
	for i, k := range keys {
		if v, _, ok := tr.Get(k, base.MaxSeq); !ok || string(v) != fmt.Sprint(i) {
			t.Fatalf("Get(key %d) = %q %v", i, v, ok)
		}
		checkAt(t, "Seek", it, it.Seek(k, base.MaxSeq), m, m.seek(string(k), base.MaxSeq))
	}
	if _, _, ok := tr.Get(long[:maxZpath+3], base.MaxSeq); ok {
		t.Fatal("found a key never added")
	}
}

// TestConcurrentSeek runs Seek/SeekForPrev readers against writers and checks
// every answer is ordered against its target; run with -race.
func TestConcurrentSeek(t *testing.T) {
	tr := New(32 << 20)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errc := make(chan error, 2)
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(r), 3))
			it := tr.NewIter()
			for {
				select {
				case <-stop:
					return
				default:
				}
				k := keyGen(rng)
				if it.Seek(k, base.MaxSeq) && bytes.Compare(it.Key(), k) < 0 {
					errc <- fmt.Errorf("Seek(%q) landed on %q", k, it.Key())
					return
				}
				if it.SeekForPrev(k, 0) && bytes.Compare(it.Key(), k) > 0 {
					errc <- fmt.Errorf("SeekForPrev(%q) landed on %q", k, it.Key())
					return
				}
			}
		}(r)
	}
	var ww sync.WaitGroup
	for w := 0; w < 3; w++ {
		ww.Add(1)
		go func(w int) {
			defer ww.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			for i := 0; i < 3000; i++ {
				if err := tr.Add(uint64(w*3000+i+1), base.KindSet, keyGen(rng), nil); err != nil {
					t.Error(err)
					return
				}
			}
		}(w)
	}
	ww.Wait()
	close(stop)
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
}
