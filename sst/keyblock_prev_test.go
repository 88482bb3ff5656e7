package sst

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// blockEntry is what a block iterator shows for one entry.
type blockEntry struct {
	key            string
	trailer        base.Trailer
	valOff, valLen uint32
}

func currentEntry(it *blockIter) blockEntry {
	return blockEntry{string(it.key), it.trailer, it.valOff, it.valLen}
}

// randomKeyBlock builds a key block of n entries with shared prefixes,
// repeated user keys (several versions) and repeated trailers, and returns
// it with its entries in order.
func randomKeyBlock(rng *rand.Rand, prefix string, n, interval int) ([]byte, []blockEntry) {
	b := keyBlockWriter{interval: interval}
	var keys []string
	for len(keys) < n {
		k := fmt.Sprintf("%s%06d%s", prefix, rng.IntN(100000), bytes.Repeat([]byte{'x'}, rng.IntN(20)))
		for range 1 + rng.IntN(3) {
			keys = append(keys, k)
		}
	}
	keys = keys[:n]
	slices.Sort(keys)
	var want []blockEntry
	var valOff uint32
	seq := uint64(1 << 20)
	for i, k := range keys {
		// Versions of one key descend by sequence number; a key with one
		// version may have sequence number zero, as at the bottom level,
		// so that runs of equal trailers are left out of the block.
		seq--
		trailer := base.MakeTrailer(seq, base.KindSet)
		single := (i == 0 || keys[i-1] != k) && (i == n-1 || keys[i+1] != k)
		if single && rng.IntN(2) == 0 {
			trailer = base.MakeTrailer(0, base.KindSet)
		}
		value := bytes.Repeat([]byte{'v'}, rng.IntN(50))
		b.add([]byte(k), trailer, value)
		want = append(want, blockEntry{k, trailer, valOff, uint32(len(value))})
		valOff += uint32(len(value))
	}
	return b.finishKeys(), want
}

// TestBlockIterReverse walks key blocks backwards from the end and from
// random seeks, turning around at random, and checks every entry against
// the block's contents: steps served by the reverse cache must show what a
// rescan from the restart point shows.
func TestBlockIterReverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1))
	for _, interval := range []int{1, 2, 3, 16} {
		for _, n := range []int{1, 2, 17, 100} {
			data, want := randomKeyBlock(rng, "key", n, interval)
			var it blockIter
			if err := it.init(data); err != nil {
				t.Fatal(err)
			}
			i := n - 1
			for ok := it.last(); ok; ok = it.prev() {
				if got := currentEntry(&it); got != want[i] {
					t.Fatalf("interval %d, n %d: backward scan at %d shows %+v, want %+v", interval, n, i, got, want[i])
				}
				i--
			}
			if it.err != nil || i != -1 {
				t.Fatalf("interval %d, n %d: backward scan stopped at %d, err %v", interval, n, i, it.err)
			}
			for range 200 {
				i = rng.IntN(n)
				if !it.seekGE([]byte(want[i].key)) {
					t.Fatalf("seekGE(%q) invalid, err %v", want[i].key, it.err)
				}
				for i > 0 && want[i-1].key == want[i].key {
					i-- // seekGE lands on the newest version
				}
				for range 40 {
					if rng.IntN(3) == 0 {
						if !it.next() {
							if i != n-1 {
								t.Fatalf("next at %d of %d invalid, err %v", i, n, it.err)
							}
							break
						}
						i++
					} else {
						if !it.prev() {
							if i != 0 || it.err != nil {
								t.Fatalf("prev at %d invalid, err %v", i, it.err)
							}
							break
						}
						i--
					}
					if got := currentEntry(&it); got != want[i] {
						t.Fatalf("interval %d, n %d: at %d shows %+v, want %+v", interval, n, i, got, want[i])
					}
				}
			}
		}
	}
}

// TestBlockIterReverseNewBlock checks that a block iterator moved to
// another block forgets the entries it cached for the previous one, even
// where the two blocks' entries sit at the same offsets.
func TestBlockIterReverseNewBlock(t *testing.T) {
	dataA, _ := randomKeyBlock(rand.New(rand.NewPCG(18, 2)), "keyA", 40, 16)
	dataB, wantB := randomKeyBlock(rand.New(rand.NewPCG(18, 2)), "keyB", 40, 16)
	var it blockIter
	if err := it.init(dataA); err != nil {
		t.Fatal(err)
	}
	for ok := it.last(); ok; ok = it.prev() {
	}
	// The cache now holds block A's first restart interval.
	if err := it.init(dataB); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 16; i++ {
		if !it.seekGE([]byte(wantB[i].key)) || !it.prev() {
			t.Fatalf("seekGE(%q) and prev failed, err %v", wantB[i].key, it.err)
		}
		j := i - 1
		for j > 0 && wantB[j].key == wantB[i].key {
			j--
		}
		if got := currentEntry(&it); got != wantB[j] {
			t.Fatalf("prev from %q shows %+v, want %+v", wantB[i].key, got, wantB[j])
		}
	}
}

// BenchmarkBlockIterPrev steps backwards through one 100-entry key block
// with db_bench's restart interval.
func BenchmarkBlockIterPrev(b *testing.B) {
	data, want := randomKeyBlock(rand.New(rand.NewPCG(18, 3)), "key", 100, 16)
	var it blockIter
	if err := it.init(data); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		for ok := it.last(); ok; ok = it.prev() {
			steps++
		}
	}
	if steps != b.N*len(want) {
		b.Fatalf("%d steps, want %d", steps, b.N*len(want))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}
