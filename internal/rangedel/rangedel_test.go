package rangedel

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestEncodeExample(t *testing.T) {
	l := Build([]Tombstone{{[]byte("a"), []byte("c"), 7}, {[]byte("b"), []byte("d"), 9}})
	got := l.Encode(nil)
	want := []byte{3, 1, 'a', 1, 'b', 1, 7, 1, 'b', 1, 'c', 2, 9, 7, 1, 'c', 1, 'd', 1, 9}
	if !bytes.Equal(got, want) {
		t.Fatalf("encoding % x, want % x", got, want)
	}
	d, err := Decode(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(d.Encode(nil), want) || d.Count() != 4 {
		t.Fatalf("decoded list re-encodes as % x, count %d", d.Encode(nil), d.Count())
	}
}

// TestBuildMatchesBruteForce checks Covering against every tombstone.
func TestBuildMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	key := func(i int) []byte { return []byte(fmt.Sprintf("%03d", i)) }
	for round := range 200 {
		var ts []Tombstone
		for range rng.IntN(12) {
			s := rng.IntN(50)
			ts = append(ts, Tombstone{key(s), key(s + rng.IntN(15)), uint64(1 + rng.IntN(20))})
		}
		orig := append([]Tombstone(nil), ts...)
		l := Build(ts)
		d, err := Decode(l.Encode(nil))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for k := range 70 {
			for snap := uint64(0); snap <= 21; snap++ {
				var want uint64
				for _, tb := range orig {
					if bytes.Compare(tb.Start, key(k)) <= 0 && bytes.Compare(key(k), tb.End) < 0 && tb.Seq <= snap {
						want = max(want, tb.Seq)
					}
				}
				if got := l.Covering(key(k), snap); got != want {
					t.Fatalf("round %d: Covering(%s, %d) = %d, want %d", round, key(k), snap, got, want)
				}
				if got := d.Covering(key(k), snap); got != want {
					t.Fatalf("round %d: decoded Covering(%s, %d) = %d, want %d", round, key(k), snap, got, want)
				}
			}
		}
		lo, hi := key(rng.IntN(60)), key(rng.IntN(60))
		tr := l.Truncate(lo, hi)
		for k := range 70 {
			want := l.Covering(key(k), 100)
			if bytes.Compare(key(k), lo) < 0 || bytes.Compare(key(k), hi) >= 0 {
				want = 0
			}
			if got := tr.Covering(key(k), 100); got != want {
				t.Fatalf("round %d: truncated to [%s, %s): Covering(%s) = %d, want %d", round, lo, hi, key(k), got, want)
			}
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	for name, b := range map[string][]byte{
		"truncated":        {1, 1, 'a'},
		"empty fragment":   {1, 1, 'b', 1, 'a', 1, 7},
		"no sequences":     {1, 1, 'a', 1, 'b', 0},
		"ascending seqs":   {1, 1, 'a', 1, 'b', 2, 7, 9},
		"overlap":          {2, 1, 'a', 1, 'c', 1, 7, 1, 'b', 1, 'd', 1, 7},
		"trailing bytes":   {0, 0},
		"too many frags":   {0x7f},
		"bad varint":       {0xff},
		"key past the end": {1, 9, 'a'},
	} {
		if _, err := Decode(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: Decode(% x) = %v, want ErrMalformed", name, b, err)
		}
	}
}

// TestCursorMatchesList asks a Cursor about keys in scan orders (forward,
// backward, random) and compares with List.Covering.
func TestCursorMatchesList(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	key := func(i int) []byte { return []byte(fmt.Sprintf("%03d", i)) }
	for round := range 100 {
		var ts []Tombstone
		for range rng.IntN(10) {
			s := rng.IntN(60)
			ts = append(ts, Tombstone{key(s), key(s + 1 + rng.IntN(10)), uint64(1 + rng.IntN(20))})
		}
		l := Build(ts)
		c := Cursor{List: l}
		var order []int
		for k := range 80 {
			order = append(order, k)
		}
		for k := 79; k >= 0; k-- {
			order = append(order, k)
		}
		for range 80 {
			order = append(order, rng.IntN(80))
		}
		for _, k := range order {
			snap := uint64(rng.IntN(22))
			if got, want := c.Covering(key(k), snap), l.Covering(key(k), snap); got != want {
				t.Fatalf("round %d: Cursor.Covering(%s, %d) = %d, List.Covering = %d", round, key(k), snap, got, want)
			}
		}
	}
}
