package sst

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestIndexSeparatorsKeepNoSlack: an open table that keeps its separators
// whole keeps them in a buffer within an eighth of their size (they are
// appended as decoded, which grows the buffer by doubling).
func TestIndexSeparatorsKeepNoSlack(t *testing.T) {
	withShortSeparators(t, false)
	for _, n := range []int{3000, 20000, 50000} {
		path, _ := writeTable(t, t.TempDir(), sequentialEntries(n), WriterOptions{})
		r := openTable(t, path, ReaderOptions{})
		if r.blocks.len() < 10 || r.sepLen != nil {
			t.Fatalf("%d entries: %d blocks, short separators %v", n, r.blocks.len(), r.sepLen != nil)
		}
		if l, c := len(r.seps), cap(r.seps); c-l > l/8 {
			t.Errorf("%d entries, %d blocks: separators take %d bytes of a %d-byte buffer", n, r.blocks.len(), l, c)
		}
		// Allocations round up to Go's size classes, within an eighth.
		if l, c := r.blocks.len(), cap(r.blocks.small); c-l > l/4 {
			t.Errorf("%d entries: %d block entries in a buffer of %d", n, l, c)
		}
	}
}

func withShortSeparators(t *testing.T, on bool) {
	was := shortSeparators
	shortSeparators = on
	t.Cleanup(func() { shortSeparators = was })
}

// TestIndexBytesPerPair: a table of db_bench-like keys (16 bytes, an 8-byte
// big-endian number then '0's) keeps 8 bytes of block handle, 8 of
// separator prefix and 1 of separator length a pair, and no separator
// bytes but its last one's.
func TestIndexBytesPerPair(t *testing.T) {
	var es []entry
	for _, k := range rand.New(rand.NewPCG(1, 2)).Perm(1 << 20)[:40000] {
		key := append(binary.BigEndian.AppendUint64(nil, uint64(k)), "00000000"...)
		es = append(es, entry{key: key, kind: base.KindSet, value: make([]byte, 100)})
	}
	slices.SortFunc(es, compareEntries)
	for i := range es {
		es[i].seq = uint64(len(es) - i)
	}
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{})
	r := openTable(t, path, ReaderOptions{})
	n := r.blocks.len()
	if n < 100 || r.sepLen == nil || len(r.longSeps.at) != 1 || r.longSeps.at[0] != int32(n-1) {
		t.Fatalf("%d blocks, short %v, long separators at %v; want one long separator, the last", n, r.sepLen != nil, r.longSeps.at)
	}
	if r.seps != nil || r.sepEnds != nil || len(r.blocks.small) != n || r.blocks.large != nil {
		t.Fatalf("separators %d bytes, ends %d, %d small block entries, %d large", len(r.seps), len(r.sepEnds), len(r.blocks.small), len(r.blocks.large))
	}
	last := es[len(es)-1].key
	if got := r.separator(n - 1); !bytes.Equal(got, last) {
		t.Fatalf("last separator %q, want the last key %q", got, last)
	}
}

// TestShortSeparatorsSearchAsWholeOnes: findBlock and ApproximateOffsetOf
// of a table with short separators answer as the same table's whole
// separators do, for keys of every shape around the separators: equal,
// extended by zero bytes and others, cut short, and random.
func TestShortSeparatorsSearchAsWholeOnes(t *testing.T) {
	alphabets := [][]byte{{0, 1, 0xfe, 0xff}, {0, 'a', 'b'}, []byte("0123456789")}
	mixed := 0
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 99))
		alpha := alphabets[seed%3]
		prefix := bytes.Repeat([]byte{'p'}, int(seed%4)*3)
		randomKey := func() []byte {
			k := slices.Clone(prefix)
			for range 1 + rng.IntN(4+int(seed%3)*6) {
				k = append(k, alpha[rng.IntN(len(alpha))])
			}
			return k
		}
		seen := map[string]bool{}
		var es []entry
		for range 3000 + rng.IntN(3000) {
			k := randomKey()
			if seen[string(k)] {
				continue
			}
			seen[string(k)] = true
			es = append(es, entry{key: k, kind: base.KindSet, value: make([]byte, rng.IntN(60))})
		}
		slices.SortFunc(es, compareEntries)
		for i := range es {
			es[i].seq = uint64(len(es) - i)
		}
		path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 256 + rng.IntN(512)})
		shortSeparators = false
		whole := openTable(t, path, ReaderOptions{})
		shortSeparators = true
		short := openTable(t, path, ReaderOptions{})
		n := whole.blocks.len()
		if whole.sepLen != nil || n < 5 {
			t.Fatalf("seed %d: %d blocks, reference reader has short separators %v", seed, n, whole.sepLen != nil)
		}
		probes := [][]byte{nil, {0}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}
		for i := range n {
			s := whole.separator(i)
			if got := short.separator(i); !bytes.Equal(got, s) {
				t.Fatalf("seed %d: separator %d rebuilt as %q, want %q", seed, i, got, s)
			}
			probes = append(probes, s, append(slices.Clone(s), 0), append(slices.Clone(s), 0, 0), append(slices.Clone(s), 1), s[:len(s)-1])
			for j := len(s); j < 10; j++ {
				probes = append(probes, append(slices.Clone(s), make([]byte, j-len(s)+1)...))
			}
		}
		for _, e := range es {
			probes = append(probes, e.key)
		}
		for range 2000 {
			probes = append(probes, randomKey())
		}
		for _, p := range probes {
			if got, want := short.findBlock(p), whole.findBlock(p); got != want {
				t.Fatalf("seed %d (%d blocks, short form %v): findBlock(%q) = %d, whole separators say %d", seed, n, short.sepLen != nil, p, got, want)
			}
			if got, want := short.ApproximateOffsetOf(p), whole.ApproximateOffsetOf(p); got != want {
				t.Fatalf("seed %d: ApproximateOffsetOf(%q) = %d, want %d", seed, p, got, want)
			}
		}
		if seed%3 == 0 && short.sepLen == nil {
			t.Errorf("seed %d: %d blocks with separators of at most %d bytes are kept whole", seed, n, len(prefix)+4)
		}
		if short.sepLen != nil && len(short.longSeps.at) > 1 {
			mixed++
		}
		t.Logf("seed %d: %d blocks, short %v, %d long", seed, n, short.sepLen != nil, len(short.longSeps.at))
		whole.Close()
		short.Close()
	}
	if mixed == 0 {
		t.Error("no table had short separators beside long ones other than its last")
	}
}

// TestBlockTableForms: the small and large forms of a block table give
// the same entries and pair ends.
func TestBlockTableForms(t *testing.T) {
	small, large := newBlockTable(1<<30), newBlockTable(1<<33)
	if small.isLarge || !large.isLarge {
		t.Fatalf("a 1 GiB table large %v, an 8 GiB one %v", small.isLarge, large.isLarge)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var want []dataBlock
	off := uint64(0)
	for range 1000 {
		d := dataBlock{offset: off, keyLen: uint32(rng.IntN(5000)), valueLen: uint32(rng.IntN(70000))}
		want = append(want, d)
		small.add(d)
		large.add(d)
		off = d.valueOffset() + uint64(d.valueLen) + blockTrailerLen
	}
	small.trim()
	large.trim()
	for i, d := range want {
		end := d.valueOffset() + uint64(d.valueLen) + blockTrailerLen
		for _, bt := range []*blockTable{&small, &large} {
			if got := bt.at(i); got != d || bt.pairEnd(i) != end {
				t.Fatalf("large %v: entry %d = %+v ending %d, want %+v ending %d", bt.isLarge, i, got, bt.pairEnd(i), d, end)
			}
		}
	}
	if small.len() != len(want) || large.len() != len(want) || len(small.large) != 0 || len(large.small) != 0 {
		t.Fatalf("lengths %d and %d, want %d in one form each", small.len(), large.len(), len(want))
	}
}
