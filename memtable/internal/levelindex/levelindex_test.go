package levelindex

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"unsafe"
)

// fakeList is a list's level Level laid out as Nodes describes, in one
// []uint32: a node is 6 words, the level-1 link, the level-0 link (the
// node's offset is this word's index), a 1-byte key length and an 8-byte
// key. Nodes sit at random places, so a walk misses the cache as a real
// list's does.
type fakeList struct {
	mem  []uint32
	free []uint32 // unused node offsets, in random order
	head uint32
}

const nodeWords, keyOffset = 6, 4

func newFakeList(slots int, rng *rand.Rand) *fakeList {
	f := &fakeList{mem: make([]uint32, (slots+1)*nodeWords), head: 1}
	for _, s := range rng.Perm(slots) {
		f.free = append(f.free, uint32((s+1)*nodeWords+1))
	}
	return f
}

func (f *fakeList) addr(x uint32) unsafe.Pointer { return unsafe.Pointer(&f.mem[x]) }

func (f *fakeList) next(x uint32) *atomic.Uint32 { return link(f.addr(x)) }

func (f *fakeList) key(x uint32) uint64 {
	return binary.BigEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(f.addr(x), keyOffset+1)), 8))
}

// insert links a node of key k at level Level after the last node < k.
func (f *fakeList) insert(k uint64) uint32 { return f.insertAfter(f.head, k) }

// insertAfter is insert with the walk starting from p, a node < k.
func (f *fakeList) insertAfter(p uint32, k uint64) uint32 {
	x := f.free[0]
	f.free = f.free[1:]
	b := unsafe.Slice((*byte)(unsafe.Add(f.addr(x), keyOffset)), 9)
	b[0] = 8
	binary.BigEndian.PutUint64(b[1:], k)
	for n := f.next(p).Load(); n != 0 && f.key(n) < k; n = f.next(p).Load() {
		p = n
	}
	f.next(x).Store(f.next(p).Load())
	f.next(p).Store(x)
	return x
}

func (f *fakeList) nodes() Nodes { return Nodes{Head: f.head, Addr: f.addr, KeyOffset: keyOffset} }

// checkIndex checks that ix holds f's level in order with its keys.
func checkIndex(t *testing.T, f *fakeList, ix *Index) {
	t.Helper()
	i := 0
	for x := f.next(f.head).Load(); x != 0; x = f.next(x).Load() {
		if i >= ix.Len() || ix.Node(i) != x || ix.Prefix(i) != f.key(x) {
			t.Fatalf("indexed node %d is not the list's", i)
		}
		i++
	}
	if i != ix.Len() {
		t.Fatalf("%d nodes indexed, %d in the list", ix.Len(), i)
	}
	if len(ix.firsts) != summaryLen(i) {
		t.Fatalf("a summary of %d prefixes for %d nodes", len(ix.firsts), i)
	}
	for j, p := range ix.firsts {
		if p != ix.prefixes[j*blockLen] {
			t.Fatalf("summary entry %d is not prefix %d", j, j*blockLen)
		}
	}
}

// TestBuild checks a build from scratch and one from a previous index
// after nodes were linked between its nodes, before and after all of them.
func TestBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	f := newFakeList(3000, rng)
	var k Keeper
	k.Init()
	for _, key := range rng.Perm(1000) {
		f.insert(uint64(key)*4 + 2)
	}
	if k.Due(MinLen - 1) {
		t.Fatal("due before MinLen")
	}
	k.Build(MinLen, Level+1, f.nodes())
	checkIndex(t, f, k.Load())
	if k.NextAt() != MinLen+MinLen/2 || k.Due(k.NextAt()-1) || !k.Due(k.NextAt()) {
		t.Fatalf("next build at %d", k.NextAt())
	}
	f.insert(0)
	f.insert(1<<40 + 1)
	for range 1500 {
		f.insert(uint64(rng.IntN(4000)))
	}
	old := k.Load()
	k.Build(MinLen, Level+1, f.nodes()) // not due: kept
	if k.Load() != old {
		t.Fatal("rebuilt before due")
	}
	k.Build(k.NextAt(), Level+1, f.nodes())
	checkIndex(t, f, k.Load())
	if got, min := k.Bytes(), uint64(k.Load().Len())*12+uint64(summaryLen(k.Load().Len()))*8; got < min {
		t.Fatalf("Bytes %d, want at least %d", got, min)
	}
	var low Keeper
	low.Build(MinLen, Level, f.nodes())
	if low.Load() != nil {
		t.Fatal("index of a list no higher than Level")
	}
}

// TestFind checks Find and Bracket against a linear scan, with runs of
// equal prefixes: before is called only inside the key's run.
func TestFind(t *testing.T) {
	ix := &Index{}
	for i := range 300 {
		ix.prefixes = append(ix.prefixes, uint64(i/4)*2)
		ix.nodes = append(ix.nodes, uint32(100+i))
	}
	ix.summarize()
	for prefix := uint64(0); prefix < 160; prefix++ {
		for cut := range 5 {
			// The key sorts after the first cut nodes of its run.
			rank := func(n uint32) int { return int(n-100) % 4 }
			got := ix.Find(prefix, func(n uint32) bool {
				if ix.prefixes[n-100] != prefix {
					t.Fatalf("before called for prefix %d, key's %d", ix.prefixes[n-100], prefix)
				}
				return rank(n) < cut
			})
			want := 0
			for want < len(ix.nodes) && (ix.prefixes[want] < prefix || ix.prefixes[want] == prefix && rank(ix.nodes[want]) < cut) {
				want++
			}
			if got != want {
				t.Fatalf("Find(%d) cut %d = %d, want %d", prefix, cut, got, want)
			}
		}
	}
	if from, bigger := ix.Bracket(0, 7); from != 7 || bigger != 100 {
		t.Fatalf("Bracket(0) = %d, %d", from, bigger)
	}
	if from, bigger := ix.Bracket(len(ix.nodes), 7); from != ix.nodes[len(ix.nodes)-1] || bigger != 0 {
		t.Fatalf("Bracket(Len) = %d, %d", from, bigger)
	}
}

// TestLowerBound checks the search through the summary against one over
// all the prefixes, for indexes of every length around a few blocks, with
// runs of equal prefixes that cross block boundaries, for every prefix
// from below the first to above the last.
func TestLowerBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := range 4*blockLen + 3 {
		ix := &Index{}
		p := uint64(1)
		for i := range n {
			ix.prefixes = append(ix.prefixes, p)
			ix.nodes = append(ix.nodes, uint32(i+1))
			p += uint64(rng.IntN(3)) * 2 // steps of 0 (a run), 2 or 4
		}
		ix.summarize()
		if want := (n + blockLen - 1) / blockLen; len(ix.firsts) != want || summaryLen(n) != want {
			t.Fatalf("%d prefixes: %d summary entries, want %d", n, len(ix.firsts), want)
		}
		for q := uint64(0); q <= p+1; q++ {
			if got, want := ix.lowerBound(q), firstAt(ix.prefixes, q, false); got != want {
				t.Fatalf("%d prefixes: lowerBound(%d) = %d, want %d", n, q, got, want)
			}
		}
	}
}

// TestStart checks the search starts with and without an index.
func TestStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	f := newFakeList(100, rng)
	var height atomic.Int32
	height.Store(5)
	var k Keeper
	k.Init()
	never := func(uint32) bool { t.Fatal("before called"); return false }
	if from, level, bigger := k.Start(f.head, &height, 9, never); from != f.head || level != 4 || bigger != 0 {
		t.Fatalf("Start without an index = %d, %d, %d", from, level, bigger)
	}
	if from, level, _ := k.Start(f.head, &height, 0, nil); from != f.head || level != 4 {
		t.Fatalf("the last node's search without an index starts at %d, %d", from, level)
	}
	var x []uint32
	for i := range 10 {
		x = append(x, f.insert(uint64(i)*10))
	}
	k.Build(MinLen, 5, f.nodes())
	if from, level, bigger := k.Start(f.head, &height, 35, never); from != x[3] || level != Level || bigger != x[4] {
		t.Fatalf("Start(35) = %d, %d, %d", from, level, bigger)
	}
	if from, level, _ := k.Start(f.head, &height, 0, nil); from != x[9] || level != Level {
		t.Fatalf("the last node's search starts at %d, %d", from, level)
	}
	// A key after every indexed node starts from the top: the nodes added
	// since the build may all lie after the last indexed one.
	if from, level, bigger := k.Start(f.head, &height, 95, never); from != f.head || level != 4 || bigger != 0 {
		t.Fatalf("Start(95) = %d, %d, %d, want the head at the top level", from, level, bigger)
	}
	k.Drop()
	if k.Load() != nil {
		t.Fatal("Drop kept the index")
	}
}

// BenchmarkBuild is one build of the index of 100,000 level-1 nodes (a
// list of about 400,000 entries) at random places in 9.6 MB: from scratch,
// and from a previous index of two thirds of them (the list grew by half
// since).
func BenchmarkBuild(b *testing.B) {
	const n = 100_000
	rng := rand.New(rand.NewPCG(5, 6))
	f := newFakeList(4*n, rng) // 9.6 MB of node slots
	keys := rng.Perm(n)
	for _, key := range keys[:2*n/3] {
		f.insert(uint64(key))
	}
	var old Keeper
	old.Build(MinLen, Level+1, f.nodes())
	// The rest are linked by a walk from the nearest indexed node, so that
	// filling the list takes no quadratic time.
	for _, key := range keys[2*n/3:] {
		ix := old.Load()
		i := ix.Find(uint64(key), func(uint32) bool { return true }) // keys are unique
		p, _ := ix.Bracket(i, f.head)
		f.insertAfter(p, uint64(key))
	}
	b.Run("scratch", func(b *testing.B) {
		for b.Loop() {
			var k Keeper
			k.Build(4*n, Level+1, f.nodes())
		}
	})
	b.Run("fromOld", func(b *testing.B) {
		for b.Loop() {
			var k Keeper
			k.index.Store(old.Load())
			k.Build(4*n, Level+1, f.nodes())
		}
	})
}

// TestKeeperPad checks that the fields a search reads start a cache line
// pair after whatever a list keeps before its Keeper.
func TestKeeperPad(t *testing.T) {
	var k Keeper
	if off := unsafe.Offsetof(k.index); off < Pad || Pad < 64 {
		t.Fatalf("index pointer at offset %d of the Keeper", off)
	}
}

// BenchmarkFind is the index search of a key (its first 8 bytes unique)
// and the read of the nodes around it (Bracket), over 107,000 indexed nodes
// (a 64 MiB memtable of db_bench's default entries, about 430,000) and
// over 2.5M (memtablerep_bench's 10M entries), random keys, so that the
// large index misses the cache as a list's does: "all" binary-searches all
// the prefixes, as Find did before the summary; "summary" is Find.
func BenchmarkFind(b *testing.B) {
	for _, n := range []int{107_000, 2_500_000} {
		rng := rand.New(rand.NewPCG(9, uint64(n)))
		ix := &Index{}
		p := uint64(0)
		for i := range n {
			p += 1 + rng.Uint64N(1<<20)
			ix.prefixes = append(ix.prefixes, p)
			ix.nodes = append(ix.nodes, uint32(i+1))
		}
		ix.summarize()
		keys := make([]uint64, 1<<16)
		for i := range keys {
			keys[i] = rng.Uint64N(p + 1)
		}
		find := map[string]func(uint64) int{
			"all":     func(k uint64) int { return firstAt(ix.prefixes, k, false) },
			"summary": func(k uint64) int { return ix.Find(k, func(uint32) bool { return true }) },
		}
		for _, how := range []string{"all", "summary"} {
			b.Run(fmt.Sprintf("%d/%s", n, how), func(b *testing.B) {
				f := find[how]
				sum := uint32(0)
				i := 0
				for b.Loop() {
					from, bigger := ix.Bracket(f(keys[i&(len(keys)-1)]), 0)
					sum += from + bigger
					i++
				}
				sink = sum
			})
		}
	}
}

var sink uint32
