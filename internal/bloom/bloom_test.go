package bloom

import (
	"math/rand"
	"testing"
)

// TestWorkedExample builds the package doc's example filter bit by bit.
func TestWorkedExample(t *testing.T) {
	const h = 0xC000000000000001
	hashes := []uint64{h}
	for _, tc := range []struct {
		probing Probing
		set     map[int]byte // byte offset: value
	}{
		{Fields9, map[int]byte{192 + 2: 0x20, 192 + 39: 0x40}},
		{Multiply32, map[int]byte{192: 0x01, 192 + 39: 0x10}},
	} {
		// 4 lines: one key at 2048 bits per key.
		f := Append([]byte{0xAA}, hashes, 4*lineBits, 2, tc.probing)
		if len(f) != 1+4*LineBytes || f[0] != 0xAA {
			t.Fatalf("probing %d: Append wrote %d bytes after the prefix", tc.probing, len(f)-1)
		}
		for i, b := range f[1:] {
			if b != tc.set[i] {
				t.Fatalf("probing %d: byte %d is %#x, want %#x", tc.probing, i, b, tc.set[i])
			}
		}
		filter, ok := New(f[1:], 2, tc.probing)
		if !ok || !filter.MayContain(h) {
			t.Fatalf("probing %d: the filter does not admit its key", tc.probing)
		}
	}
}

// TestNoFalseNegativesAndRate adds 20,000 keys at 10 bits per key: every
// key is admitted, and about 1% of 50,000 others are (a blocked filter's
// rate; the bound is loose enough for any seed, tight enough to catch a
// probe sequence that sets too few bits).
func TestNoFalseNegativesAndRate(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	hashes := randomHashes(rng, 20000)
	for _, probing := range []Probing{Multiply32, Fields9} {
		probes := ProbesFor(10, probing)
		f, ok := New(Append(nil, hashes, 10, probes, probing), probes, probing)
		if !ok {
			t.Fatalf("probing %d: New refused Append's filter", probing)
		}
		for _, h := range hashes {
			if !f.MayContain(h) {
				t.Fatalf("probing %d: false negative for %#x", probing, h)
			}
		}
		fp := 0
		for range 50000 {
			if f.MayContain(rng.Uint64()) {
				fp++
			}
		}
		if rate := float64(fp) / 50000; rate > 0.02 || rate < 0.002 {
			t.Fatalf("probing %d: false-positive rate %.4f at 10 bits per key", probing, rate)
		}
	}
}

func TestProbesAndLines(t *testing.T) {
	for _, tc := range []struct {
		bits    int
		probing Probing
		want    int
	}{{10, Multiply32, 6}, {10, Fields9, 6}, {1, Multiply32, 1}, {20, Fields9, 7}, {100, Multiply32, 30}} {
		if got := ProbesFor(tc.bits, tc.probing); got != tc.want {
			t.Errorf("ProbesFor(%d, %d) = %d, want %d", tc.bits, tc.probing, got, tc.want)
		}
	}
	if Lines(0, 10) != 1 || Lines(51, 10) != 1 || Lines(52, 10) != 2 {
		t.Fatalf("Lines: %d %d %d", Lines(0, 10), Lines(51, 10), Lines(52, 10))
	}
}

func TestNewRefusesMalformed(t *testing.T) {
	line := make([]byte, LineBytes)
	for _, tc := range []struct {
		lines   []byte
		probes  int
		probing Probing
	}{
		{nil, 6, Multiply32},
		{line[:63], 6, Multiply32},
		{line, 0, Multiply32},
		{line, 31, Multiply32},
		{line, 8, Fields9},
	} {
		if _, ok := New(tc.lines, tc.probes, tc.probing); ok {
			t.Errorf("New(%d bytes, %d probes, %d) accepted", len(tc.lines), tc.probes, tc.probing)
		}
	}
}

// TestAddBuildsAppendsFilter: Add over hashes in any order, into a filter
// of Lines(len(hashes)) lines, sets exactly the bits Append sets.
func TestAddBuildsAppendsFilter(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	hashes := randomHashes(rng, 5000)
	for _, probing := range []Probing{Multiply32, Fields9} {
		probes := ProbesFor(10, probing)
		want := Append(nil, hashes, 10, probes, probing)
		lines := Lines(len(hashes), 10)
		got := make([]byte, lines*LineBytes)
		for _, i := range rng.Perm(len(hashes)) {
			Add(got, uint64(lines), hashes[i], probes, probing)
		}
		if string(got) != string(want) {
			t.Errorf("probing %d: Add's filter differs from Append's", probing)
		}
	}
}

// randomHashes returns n hashes drawn from rng.
func randomHashes(rng *rand.Rand, n int) []uint64 {
	hashes := make([]uint64, n)
	for i := range hashes {
		hashes[i] = rng.Uint64()
	}
	return hashes
}
