package memtabletest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// valueFor derives an entry's value from its key and sequence, so a reader
// running concurrently with writers can verify any entry it sees without
// sharing state with them. Lengths vary from 0 to 40 bytes.
func valueFor(key []byte, seq uint64) []byte {
	n := int((seq*7 + uint64(len(key))) % 41)
	v := make([]byte, n)
	x := seq*0x9E3779B97F4A7C15 + uint64(len(key))
	for _, c := range key {
		x = x*31 + uint64(c)
	}
	for i := range v {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		v[i] = byte(x)
	}
	return v
}

// kindFor makes every fifth sequence a tombstone and, of the others, every
// seventh a merge operand.
func kindFor(seq uint64) base.Kind {
	switch {
	case seq%5 == 0:
		return base.KindDelete
	case seq%7 == 0:
		return base.KindMerge
	}
	return base.KindSet
}

// keyFor returns user key number i of a key space: variable length, shared
// prefixes, and key 0 is the empty key.
func keyFor(i int) []byte {
	if i == 0 {
		return []byte{}
	}
	k := fmt.Appendf(nil, "k%06d", i)
	// Vary the length so prefixes of other keys also occur.
	return k[:2+i%6]
}

// RunRep runs the whole conformance suite against reps built by newRep. Every
// subtest calls newRep for a fresh, empty Rep.
func RunRep(t *testing.T, newRep func() memtable.Rep) {
	t.Run("Empty", func(t *testing.T) { testEmpty(t, newRep()) })
	t.Run("Model", func(t *testing.T) { testModel(t, newRep(), 3000, 400) })
	t.Run("ManyVersions", func(t *testing.T) { testManyVersions(t, newRep()) })
	t.Run("Sequential", func(t *testing.T) { testSequential(t, newRep()) })
	t.Run("StableBytes", func(t *testing.T) { testStableBytes(t, newRep()) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, newRep(), 500) })
	t.Run("ConcurrentHotKeys", func(t *testing.T) { testConcurrent(t, newRep(), 3) })
	t.Run("InterleavedStreams", func(t *testing.T) { testInterleaved(t, newRep()) })
}

func testEmpty(t *testing.T, r memtable.Rep) {
	if r.Len() != 0 {
		t.Fatalf("Len of empty rep = %d", r.Len())
	}
	if _, _, ok := r.Get([]byte("a"), base.MaxSeq); ok {
		t.Fatal("Get on empty rep found something")
	}
	it := r.NewIter()
	if it.First() || it.Last() || it.Seek(nil, base.MaxSeq) ||
		it.SeekForPrev([]byte("zzz"), 0) || it.Valid() {
		t.Fatal("iterator over empty rep is valid")
	}
}

// fill adds entries for n distinct sequence numbers spread over nkeys user
// keys in random order and returns the sorted model.
func fill(t *testing.T, r memtable.Rep, n, nkeys int, rng *rand.Rand) *model {
	m := &model{}
	seqs := rng.Perm(n)
	for _, s := range seqs {
		seq := uint64(s) + 1
		key := keyFor(rng.IntN(nkeys))
		kind, val := kindFor(seq), valueFor(key, seq)
		if err := r.Add(seq, kind, key, val); err != nil {
			t.Fatalf("Add(%d, %q): %v", seq, key, err)
		}
		m.add(entry{key: key, seq: seq, kind: kind, value: val})
	}
	m.sort()
	return m
}

func testModel(t *testing.T, r memtable.Rep, n, nkeys int) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := fill(t, r, n, nkeys, rng)
	if r.Len() != int64(n) {
		t.Fatalf("Len = %d, want %d", r.Len(), n)
	}
	if r.ApproximateMemoryUsage() == 0 {
		t.Fatal("ApproximateMemoryUsage = 0 after inserts")
	}
	checkForward(t, r, m)
	checkBackward(t, r, m)
	// Point lookups at random snapshots, for present and absent keys.
	for i := 0; i < 4*nkeys; i++ {
		key := keyFor(rng.IntN(nkeys + 20))
		if i%7 == 0 {
			key = append(bytes.Clone(key), 'x')
		}
		snap := uint64(rng.IntN(n + 2))
		if i%11 == 0 {
			snap = base.MaxSeq
		}
		checkGet(t, r, m, key, snap)
	}
	// Seek and SeekForPrev at random targets, then a few steps each way.
	it := r.NewIter()
	for i := 0; i < 2*nkeys; i++ {
		key := keyFor(rng.IntN(nkeys + 20))
		if i%5 == 0 {
			key = append(bytes.Clone(key), byte(rng.IntN(256)))
		}
		seq := uint64(rng.IntN(n + 2))
		if i%9 == 0 {
			seq = base.MaxSeq
		}
		pos := m.seek(key, seq)
		checkAt(t, "Seek", it, it.Seek(key, seq), m, pos)
		walk(t, it, m, pos, rng.IntN(4), rng.IntN(4))
		pos = m.seekForPrev(key, seq)
		checkAt(t, "SeekForPrev", it, it.SeekForPrev(key, seq), m, pos)
		walk(t, it, m, pos, rng.IntN(4), rng.IntN(4))
	}
}

// walk steps the iterator fwd times forward then back times backward from
// model position pos, checking each step.
func walk(t *testing.T, it memtable.Iter, m *model, pos, fwd, back int) {
	t.Helper()
	if pos < 0 || pos >= len(m.entries) {
		return
	}
	for i := 0; i < fwd; i++ {
		pos++
		checkAt(t, "Next", it, it.Next(), m, pos)
		if pos >= len(m.entries) {
			return
		}
	}
	for i := 0; i < back; i++ {
		pos--
		checkAt(t, "Prev", it, it.Prev(), m, pos)
		if pos < 0 {
			return
		}
	}
}

// checkAt verifies that the iterator stands at model index pos (invalid when
// pos is outside the model).
func checkAt(t *testing.T, op string, it memtable.Iter, valid bool, m *model, pos int) {
	t.Helper()
	want := pos >= 0 && pos < len(m.entries)
	if valid != want || it.Valid() != want {
		t.Fatalf("%s: valid=%v Valid()=%v, want %v (pos %d of %d)", op, valid, it.Valid(), want, pos, len(m.entries))
	}
	if !want {
		return
	}
	e := &m.entries[pos]
	if !bytes.Equal(it.Key(), e.key) || it.Seq() != e.seq || it.Kind() != e.kind || !bytes.Equal(it.Value(), e.value) {
		t.Fatalf("%s: at (%q, %d, %d, %x), want (%q, %d, %d, %x)", op,
			it.Key(), it.Seq(), it.Kind(), it.Value(), e.key, e.seq, e.kind, e.value)
	}
}

func checkGet(t *testing.T, r memtable.Rep, m *model, key []byte, snap uint64) {
	t.Helper()
	want, wantOK := m.get(key, snap)
	v, kind, ok := r.Get(key, snap)
	if ok != wantOK {
		t.Fatalf("Get(%q, %d): found=%v, want %v", key, snap, ok, wantOK)
	}
	if ok && (kind != want.kind || !bytes.Equal(v, want.value)) {
		t.Fatalf("Get(%q, %d) = (%x, %d), want (%x, %d)", key, snap, v, kind, want.value, want.kind)
	}
}

func checkForward(t *testing.T, r memtable.Rep, m *model) {
	t.Helper()
	it := r.NewIter()
	ok := it.First()
	for i := range m.entries {
		checkAt(t, "First/Next", it, ok, m, i)
		ok = it.Next()
	}
	if ok {
		t.Fatalf("forward iteration has more than %d entries", len(m.entries))
	}
}

func checkBackward(t *testing.T, r memtable.Rep, m *model) {
	t.Helper()
	it := r.NewIter()
	ok := it.Last()
	for i := len(m.entries) - 1; i >= 0; i-- {
		checkAt(t, "Last/Prev", it, ok, m, i)
		ok = it.Prev()
	}
	if ok {
		t.Fatalf("backward iteration has more than %d entries", len(m.entries))
	}
}

func testManyVersions(t *testing.T, r memtable.Rep) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := &model{}
	key := []byte("the-key")
	// Neighbours on both sides so iteration crosses node boundaries.
	for _, k := range [][]byte{[]byte("the-ke"), []byte("the-key\x00")} {
		if err := r.Add(5000, base.KindSet, k, valueFor(k, 5000)); err != nil {
			t.Fatal(err)
		}
		m.add(entry{key: k, seq: 5000, kind: base.KindSet, value: valueFor(k, 5000)})
	}
	for _, s := range rng.Perm(1000) {
		seq := uint64(s)*3 + 1
		if err := r.Add(seq, kindFor(seq), key, valueFor(key, seq)); err != nil {
			t.Fatal(err)
		}
		m.add(entry{key: key, seq: seq, kind: kindFor(seq), value: valueFor(key, seq)})
	}
	m.sort()
	for snap := uint64(0); snap < 3010; snap++ {
		checkGet(t, r, m, key, snap)
	}
	checkForward(t, r, m)
	checkBackward(t, r, m)
	it := r.NewIter()
	for seq := uint64(0); seq < 3010; seq += 7 {
		checkAt(t, "Seek", it, it.Seek(key, seq), m, m.seek(key, seq))
		checkAt(t, "SeekForPrev", it, it.SeekForPrev(key, seq), m, m.seekForPrev(key, seq))
	}
}

// testSequential inserts ascending keys (the fillseq pattern that splice
// hints speed up), then descending keys.
func testSequential(t *testing.T, r memtable.Rep) {
	m := &model{}
	var kb [8]byte
	seq := uint64(0)
	for i := 0; i < 5000; i++ {
		seq++
		binary.BigEndian.PutUint64(kb[:], uint64(i)*2)
		k := bytes.Clone(kb[:])
		if err := r.Add(seq, base.KindSet, k, valueFor(k, seq)); err != nil {
			t.Fatal(err)
		}
		m.add(entry{key: k, seq: seq, kind: base.KindSet, value: valueFor(k, seq)})
	}
	for i := 5000; i > 0; i-- {
		seq++
		binary.BigEndian.PutUint64(kb[:], uint64(i)*2-1)
		k := bytes.Clone(kb[:])
		if err := r.Add(seq, base.KindSet, k, valueFor(k, seq)); err != nil {
			t.Fatal(err)
		}
		m.add(entry{key: k, seq: seq, kind: base.KindSet, value: valueFor(k, seq)})
	}
	m.sort()
	checkForward(t, r, m)
	checkBackward(t, r, m)
}

// testStableBytes checks that slices handed out earlier are not overwritten
// by later inserts, and that Add copies its arguments.
func testStableBytes(t *testing.T, r memtable.Rep) {
	key := []byte("stable")
	val := []byte("value-bytes")
	if err := r.Add(1, base.KindSet, key, val); err != nil {
		t.Fatal(err)
	}
	key[0], val[0] = 'X', 'X' // Add must have copied
	v, _, ok := r.Get([]byte("stable"), base.MaxSeq)
	if !ok || string(v) != "value-bytes" {
		t.Fatalf("Get after caller reused buffers = %q, %v", v, ok)
	}
	it := r.NewIter()
	it.First()
	k := it.Key()
	for i := 0; i < 20000; i++ {
		kk := fmt.Appendf(nil, "key%d", i)
		if err := r.Add(uint64(i)+2, base.KindSet, kk, valueFor(kk, uint64(i))); err != nil {
			t.Fatal(err)
		}
	}
	if string(v) != "value-bytes" || string(k) != "stable" {
		t.Fatalf("earlier bytes changed: value %q key %q", v, k)
	}
}

// testConcurrent runs writers with disjoint sequence ranges over a shared key
// space while readers iterate and look up; every entry a reader sees must be
// well formed, in order, and carry its expected value. At the end the rep
// must equal the model exactly.
// With few keys (nkeys = 3) writers race to create the same user key and to
// add versions to it.
func testConcurrent(t *testing.T, r memtable.Rep, nkeys int) {
	const writers, readers, perWriter = 4, 3, 2000
	var done atomic.Bool
	errc := make(chan error, readers)
	var rwg sync.WaitGroup
	for rd := 0; rd < readers; rd++ {
		rwg.Add(1)
		go func(rd int) {
			defer rwg.Done()
			rng := rand.New(rand.NewPCG(uint64(rd), 77))
			for !done.Load() {
				if err := scanCheck(r.NewIter(), rd%2 == 1); err != nil {
					errc <- err
					return
				}
				for i := 0; i < 50; i++ {
					key := keyFor(rng.IntN(nkeys))
					v, kind, ok := r.Get(key, base.MaxSeq)
					if !ok {
						continue
					}
					// The newest version's seq is unknown here, but its value must
					// be one valueFor produces for this key with a matching kind.
					if len(v) > 40 || !kind.Valid() {
						errc <- fmt.Errorf("Get(%q) returned malformed (%x, %d)", key, v, kind)
						return
					}
				}
			}
		}(rd)
	}
	rngs := make([]*rand.Rand, writers)
	for w := range rngs {
		rngs[w] = rand.New(rand.NewPCG(uint64(w), 9))
	}
	models, werr := writeConcurrently(r, writers, perWriter, func(w, i int) ([]byte, uint64) {
		return keyFor(rngs[w].IntN(nkeys)), uint64(i*writers+w) + 1
	})
	done.Store(true)
	rwg.Wait()
	close(errc)
	if werr != nil {
		t.Fatal(werr)
	}
	for err := range errc {
		t.Fatal(err)
	}
	all := checkWriters(t, r, models)
	for i := 0; i < nkeys; i++ {
		checkGet(t, r, all, keyFor(i), base.MaxSeq)
		checkGet(t, r, all, keyFor(i), uint64(i*7))
	}
}

// testInterleaved writes the same ascending keys from more goroutines than a
// rep caches splices for, as db_bench's fillseq with --threads does (every
// thread writes keys 0 to --num-1 at its own pace, so the rep sees that many
// ascending streams interleaved), and checks every version.
func testInterleaved(t *testing.T, r memtable.Rep) {
	const streams, keys = 12, 3000
	streamKey := func(i int) []byte {
		// db_bench's 16-byte keys: the number big-endian, then padding.
		return append(binary.BigEndian.AppendUint64(make([]byte, 0, 16), uint64(i)), "00000000"...)
	}
	var next atomic.Uint64
	models, err := writeConcurrently(r, streams, keys, func(_, i int) ([]byte, uint64) {
		return streamKey(i), next.Add(1)
	})
	if err != nil {
		t.Fatal(err)
	}
	all := checkWriters(t, r, models)
	for i := range keys {
		checkGet(t, r, all, streamKey(i), base.MaxSeq)
		checkGet(t, r, all, streamKey(i), uint64(i*streams/2))
	}
}

// writeConcurrently runs writers goroutines; writer w adds perWriter entries,
// the i-th with the key and sequence number op(w, i) gives, its kind from
// kindFor and its value from valueFor. It returns when every writer has
// stopped, with each writer's model of what it added and the writers' Add
// errors joined (a writer stops at its first).
func writeConcurrently(r memtable.Rep, writers, perWriter int, op func(w, i int) ([]byte, uint64)) ([]model, error) {
	var wg sync.WaitGroup
	errs := make([]error, writers)
	models := make([]model, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				key, seq := op(w, i)
				if err := r.Add(seq, kindFor(seq), key, valueFor(key, seq)); err != nil {
					errs[w] = err
					return
				}
				models[w].add(entry{key: key, seq: seq, kind: kindFor(seq), value: valueFor(key, seq)})
			}
		}()
	}
	wg.Wait()
	return models, errors.Join(errs...)
}

// checkWriters merges the models of concurrent writers and checks the rep's
// length and both scans against the result, which it returns.
func checkWriters(t *testing.T, r memtable.Rep, models []model) *model {
	t.Helper()
	all := &model{}
	for w := range models {
		all.entries = append(all.entries, models[w].entries...)
	}
	all.sort()
	if r.Len() != int64(len(all.entries)) {
		t.Fatalf("Len = %d, want %d", r.Len(), len(all.entries))
	}
	checkForward(t, r, all)
	checkBackward(t, r, all)
	return all
}

// scanCheck walks a whole iterator (forward, or backward) and checks strict
// internal-key order and that every value matches valueFor.
func scanCheck(it memtable.Iter, backward bool) error {
	var prevKey []byte
	var prevSeq uint64
	first := true
	ok := it.First()
	if backward {
		ok = it.Last()
	}
	for ; ok; first = false {
		k, s := it.Key(), it.Seq()
		if !bytes.Equal(it.Value(), valueFor(k, s)) || it.Kind() != kindFor(s) {
			return fmt.Errorf("entry (%q, %d) has value %x kind %d", k, s, it.Value(), it.Kind())
		}
		if !first {
			c := compareInternal(prevKey, prevSeq, k, s)
			if (!backward && c >= 0) || (backward && c <= 0) {
				return fmt.Errorf("order violated: (%q, %d) then (%q, %d), backward=%v", prevKey, prevSeq, k, s, backward)
			}
		}
		prevKey, prevSeq = k, s
		if backward {
			ok = it.Prev()
		} else {
			ok = it.Next()
		}
	}
	return nil
}

// RunFull fills a Rep built with a small capacity (newSmallRep should build
// one of at most a few MiB) until Add returns memtable.ErrFull, then checks
// that every accepted entry is intact and that later Adds keep failing
// cleanly rather than corrupting the rep.
func RunFull(t *testing.T, newSmallRep func() memtable.Rep) {
	t.Run("Full", func(t *testing.T) {
		r := newSmallRep()
		m := &model{}
		val := bytes.Repeat([]byte("v"), 100)
		seq := uint64(0)
		for ; ; seq++ {
			if seq > 1<<24 {
				t.Fatal("rep never reported ErrFull after 16M entries")
			}
			key := fmt.Appendf(nil, "key%09d", seq*7919%1000003)
			err := r.Add(seq+1, base.KindSet, key, val)
			if errors.Is(err, memtable.ErrFull) {
				break
			}
			if err != nil {
				t.Fatalf("Add: %v", err)
			}
			m.add(entry{key: key, seq: seq + 1, kind: base.KindSet, value: val})
		}
		if len(m.entries) == 0 {
			t.Fatal("ErrFull before any entry was accepted")
		}
		// A second attempt and a huge value must fail the same way.
		if err := r.Add(seq+2, base.KindSet, bytes.Repeat([]byte("another-"), 8), val); !errors.Is(err, memtable.ErrFull) {
			t.Fatalf("Add after full = %v, want ErrFull", err)
		}
		if err := r.Add(seq+3, base.KindSet, []byte("huge"), make([]byte, 64<<20)); !errors.Is(err, memtable.ErrFull) {
			t.Fatalf("Add of 64 MiB value = %v, want ErrFull", err)
		}
		m.sort()
		if r.Len() != int64(len(m.entries)) {
			t.Fatalf("Len = %d, want %d", r.Len(), len(m.entries))
		}
		checkForward(t, r, m)
		checkBackward(t, r, m)
		for i := range m.entries {
			checkGet(t, r, m, m.entries[i].key, base.MaxSeq)
		}
	})
}
