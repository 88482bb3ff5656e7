package sst

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/golang/snappy"
)

// dbBenchValues returns n values as db_bench makes them at its default
// --compression_ratio=0.5: each value's first half random, its second half
// a repeat of the first.
func dbBenchValues(rng *rand.Rand, n, size int) []byte {
	var b []byte
	for range n {
		half := make([]byte, size/2)
		for i := range half {
			half[i] = byte(' ' + rng.IntN(95))
		}
		b = append(b, half...)
		b = append(b, half...)
	}
	return b
}

// rangeBlocks are decoded blocks of the kinds a value block holds: db_bench's
// values, incompressible bytes, short runs (copies shorter than their
// offset's reach) and text with far repeats.
func rangeBlocks(rng *rand.Rand) map[string][]byte {
	random := make([]byte, 3000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	var runs []byte
	for len(runs) < 4000 {
		period := 1 + rng.IntN(9)
		pat := random[:period]
		for range 3 + rng.IntN(40) {
			runs = append(runs, pat...)
		}
		runs = append(runs, random[rng.IntN(100):][:rng.IntN(20)]...)
	}
	text := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog; "), 90)
	return map[string][]byte{
		"dbbench": dbBenchValues(rng, 34, 100),
		"random":  random,
		"runs":    runs,
		"text":    text,
		"one":     {42},
	}
}

// TestSnappyRangeMatchesWholeDecode: every span of a block decodes to the
// bytes a whole decode gives there, and db_bench's blocks never need the
// whole decode.
func TestSnappyRangeMatchesWholeDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var sr snappyRange
	for name, raw := range rangeBlocks(rng) {
		src := snappy.Encode(nil, raw)
		spans := [][2]int{{0, len(raw)}, {0, 1}, {len(raw) - 1, len(raw)}, {len(raw) / 2, len(raw) / 2}}
		for range 300 {
			lo := rng.IntN(len(raw))
			spans = append(spans, [2]int{lo, lo + rng.IntN(min(200, len(raw)-lo)+1)})
		}
		for _, sp := range spans {
			dst := make([]byte, sp[1]-sp[0])
			ok, err := sr.decode(dst, src, sp[0], sp[1])
			if err != nil {
				t.Fatalf("%s [%d, %d): %v", name, sp[0], sp[1], err)
			}
			if !ok {
				if name == "dbbench" {
					t.Fatalf("%s [%d, %d): decoded whole", name, sp[0], sp[1])
				}
				continue
			}
			if !bytes.Equal(dst, raw[sp[0]:sp[1]]) {
				t.Fatalf("%s [%d, %d): got %q, want %q", name, sp[0], sp[1], dst, raw[sp[0]:sp[1]])
			}
		}
	}
}

// TestSnappyRangeRejects: a span outside the block, and damaged elements
// within the span's reach, are errors.
func TestSnappyRangeRejects(t *testing.T) {
	var sr snappyRange
	raw := dbBenchValues(rand.New(rand.NewPCG(3, 4)), 4, 100)
	src := snappy.Encode(nil, raw)
	if _, err := sr.decode(make([]byte, 2), src, len(raw)-1, len(raw)+1); err == nil {
		t.Error("span past the block's end decoded")
	}
	cases := map[string][]byte{
		"truncated literal": src[:len(src)/2],
		"copy offset 0":     {8, 0x00, 'a', 1<<2 | 1, 0},     // 8 bytes: literal "a", copy 5 from offset 0
		"copy before start": {8, 0x00, 'a', 3<<2 | 1, 2},     // copy 7 from offset 2 with 1 byte out
		"longer than block": {2, 0x00, 'a', 60<<2 | 2, 1, 0}, // copy 61 bytes into a 2-byte block
		"no header":         {},
	}
	for name, src := range cases {
		size, _ := snappy.DecodedLen(src)
		hi := max(size, 1)
		if _, err := sr.decode(make([]byte, hi), src, 0, hi); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
		if _, err := snappy.Decode(nil, src); err == nil {
			t.Errorf("%s: snappy decodes it: the case is not damaged", name)
		}
	}
}

// FuzzSnappyRange: any bytes, as a block or snappy-encoded into one, and any
// span never panic; on a valid block a partial decode never errs and
// matches the whole decode.
func FuzzSnappyRange(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, raw := range rangeBlocks(rng) {
		f.Add(raw, uint16(0), uint16(len(raw)))
		f.Add(snappy.Encode(nil, raw), uint16(len(raw)/3), uint16(len(raw)/2))
	}
	var sr snappyRange
	f.Fuzz(func(t *testing.T, data []byte, a, b uint16) {
		lo, hi := int(min(a, b)), int(max(a, b))
		// data as a block, perhaps malformed: no panic.
		if size, err := snappy.DecodedLen(data); err == nil && hi <= size && hi-lo <= 1<<16 {
			_, _ = sr.decode(make([]byte, hi-lo), data, lo, hi)
		}
		src := snappy.Encode(nil, data)
		if hi > len(data) {
			return
		}
		dst := make([]byte, hi-lo)
		ok, err := sr.decode(dst, src, lo, hi)
		if err != nil {
			t.Fatalf("valid block, [%d, %d): %v", lo, hi, err)
		}
		if ok && !bytes.Equal(dst, data[lo:hi]) {
			t.Fatalf("[%d, %d): got %x, want %x", lo, hi, dst, data[lo:hi])
		}
	})
}

// BenchmarkValueDecode: one 100-byte value out of a 4 KiB snappy block of
// db_bench's values, decoded whole and as a span.
func BenchmarkValueDecode(b *testing.B) {
	raw := dbBenchValues(rand.New(rand.NewPCG(7, 8)), 34, 100)
	src := snappy.Encode(nil, raw)
	dst := make([]byte, len(raw))
	b.Run("whole", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := snappy.Decode(dst, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("span", func(b *testing.B) {
		var sr snappyRange
		for i := 0; b.Loop(); i++ {
			lo := i % 34 * 100
			if _, err := sr.decode(dst[lo:lo+100], src, lo, lo+100); err != nil {
				b.Fatal(err)
			}
		}
	})
}
