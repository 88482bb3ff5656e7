package sst

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/rangedel"
)

// rangeDelTable writes a table with two point entries and the tombstones
// ["a", "c") at 9 and ["b", "m") at 4 and returns its bytes.
func rangeDelTable(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, WriterOptions{BloomBitsPerKey: 10})
	for _, e := range []entry{{key: []byte("b"), seq: 5, kind: base.KindSet, value: []byte("x")},
		{key: []byte("d"), seq: 12, kind: base.KindSet, value: []byte("y")}} {
		if err := w.Add(e.key, e.seq, e.kind, e.value); err != nil {
			t.Fatal(err)
		}
	}
	w.SetRangeDels(rangedel.Build([]rangedel.Tombstone{
		{Start: []byte("a"), End: []byte("c"), Seq: 9},
		{Start: []byte("b"), End: []byte("m"), Seq: 4},
	}))
	p, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	// ["a","b"):9, ["b","c"):9,4, ["c","m"):4.
	if p.NumRangeDeletions != 4 || string(p.SmallestKey) != "a" || string(p.LargestKey) != "m" ||
		p.SmallestSeq != 4 || p.LargestSeq != 12 {
		t.Fatalf("properties: %d range deletions, keys %q..%q, seqs %d..%d; want 4, \"a\"..\"m\", 4..12",
			p.NumRangeDeletions, p.SmallestKey, p.LargestKey, p.SmallestSeq, p.LargestSeq)
	}
	return buf.Bytes()
}

func openBytes(t *testing.T, b []byte) (*Reader, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.sst")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, size := openFile(t, path)
	r, err := Open(f, size, ReaderOptions{})
	if err != nil {
		f.Close()
	}
	return r, err
}

func TestRangeDelBlockRoundTrip(t *testing.T) {
	r, err := openBytes(t, rangeDelTable(t))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	l := r.RangeDels()
	for _, c := range []struct {
		key  string
		snap uint64
		want uint64
	}{{"a", 100, 9}, {"b", 100, 9}, {"b", 8, 4}, {"c", 100, 4}, {"l", 3, 0}, {"m", 100, 0}} {
		if got := l.Covering([]byte(c.key), c.snap); got != c.want {
			t.Errorf("Covering(%q, %d) = %d, want %d", c.key, c.snap, got, c.want)
		}
	}
	if p := r.Properties(); p.NumRangeDeletions != 4 || string(p.LargestKey) != "m" {
		t.Errorf("read properties: %d range deletions, largest %q", p.NumRangeDeletions, p.LargestKey)
	}
	// The point entries are untouched by the tombstones: the table stores
	// both, and readers above it decide.
	found, err := r.Get([]byte("b"), 100, func([]byte, base.Kind, uint64) {})
	if err != nil || !found {
		t.Fatalf("Get(b) = %v, %v", found, err)
	}
}

// TestRangeDelBlockCorruption flips each byte of the range-deletion block:
// Open must fail with ErrCorruption, never return other tombstones.
func TestRangeDelBlockCorruption(t *testing.T) {
	good := rangeDelTable(t)
	r, err := openBytes(t, good)
	if err != nil {
		t.Fatal(err)
	}
	h := r.props.rangeDels
	r.Close()
	// The block and its 5-byte trailer.
	for off := h.Offset; off < h.Offset+uint64(h.Len)+blockTrailerLen; off++ {
		bad := bytes.Clone(good)
		bad[off] ^= 0x20
		r, err := openBytes(t, bad)
		if err == nil {
			r.Close()
			t.Fatalf("byte %d flipped: Open succeeded", off)
		}
		if !errors.Is(err, ErrCorruption) {
			t.Fatalf("byte %d flipped: %v, want ErrCorruption", off, err)
		}
	}
}

func TestTableOfTombstonesOnly(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, WriterOptions{})
	w.SetRangeDels(rangedel.Build([]rangedel.Tombstone{{Start: []byte("k1"), End: []byte("k5"), Seq: 3}}))
	p, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if p.NumEntries != 0 || string(p.SmallestKey) != "k1" || string(p.LargestKey) != "k5" || p.SmallestSeq != 3 || p.LargestSeq != 3 {
		t.Fatalf("properties %+v", p)
	}
	r, err := openBytes(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.RangeDels().Covering([]byte("k3"), 10); got != 3 {
		t.Fatalf("Covering(k3) = %d, want 3", got)
	}
	it := r.NewIter()
	defer it.Close()
	if it.First() {
		t.Fatalf("a table of tombstones only has point entry %q", it.Key())
	}
}
