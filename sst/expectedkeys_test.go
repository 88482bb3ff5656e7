package sst

import (
	"bytes"
	"os"
	"testing"

	"github.com/godbbench/godbbench/internal/bloom"
)

// TestExpectedKeysSizesTheHashBuffer: a Writer told how many keys to
// expect, no more than directFilterMin, collects the filter's hashes in one
// buffer of that size (no regrowth), and the table it writes is byte for
// byte the one written without the hint, for any hint.
func TestExpectedKeysSizesTheHashBuffer(t *testing.T) {
	const n = 2000
	es := sequentialEntries(n)
	dir := t.TempDir()
	wantBytes := readTableFile(t, dir, es, WriterOptions{BloomBitsPerKey: 10})
	for _, hint := range []int{10, n, 3 * n} {
		if got := readTableFile(t, dir, es, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: hint}); !bytes.Equal(got, wantBytes) {
			t.Errorf("ExpectedKeys %d changed the table", hint)
		}
	}
	w := addAll(t, es, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: n})
	if len(w.filter.hashes) != n || cap(w.filter.hashes) != n || w.filter.direct != nil {
		t.Errorf("hash buffer len %d cap %d (direct %v) after %d keys expected, want %d and %d", len(w.filter.hashes), cap(w.filter.hashes), w.filter.direct != nil, n, n, n)
	}
}

// TestExpectedKeysBuildsTheFilterDirectly: past directFilterMin keys a
// Writer with ExpectedKeys keeps no hashes but the filter's own lines,
// sized for the hint; told the exact count it writes the table written
// without the hint, byte for byte; told more, a filter of the hint's lines
// that still finds every key. A prefix filter keeps its hashes.
func TestExpectedKeysBuildsTheFilterDirectly(t *testing.T) {
	const n = directFilterMin + 3000
	es := sequentialEntries(n)
	dir := t.TempDir()
	wantBytes := readTableFile(t, dir, es, WriterOptions{BloomBitsPerKey: 10})
	if got := readTableFile(t, dir, es, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: n}); !bytes.Equal(got, wantBytes) {
		t.Error("ExpectedKeys of the exact count changed the table")
	}

	w := addAll(t, es, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: n})
	if w.filter.hashes != nil || len(w.filter.direct) != bloom.Lines(n, 10)*bloom.LineBytes {
		t.Errorf("after %d keys: %d hashes kept, direct filter %d bytes; want none and %d", n, len(w.filter.hashes), len(w.filter.direct), bloom.Lines(n, 10)*bloom.LineBytes)
	}
	if w := addAll(t, es, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: n, FilterPrefixLen: 4}); w.filter.direct != nil {
		t.Error("a prefix filter was built directly")
	}

	const hint = 3 * n
	path, props := writeTable(t, dir, es, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: hint})
	if got, want := props.FilterSize, uint64(bloom.Lines(hint, 10)*bloom.LineBytes+bloomTrailerLen+blockTrailerLen); got != want {
		t.Errorf("filter of %d keys told %d: %d bytes, want %d", n, hint, got, want)
	}
	r := openTable(t, path, ReaderOptions{})
	for _, e := range es {
		if !r.filter.MayContain(hashKey(e.key)) {
			t.Fatalf("filter sized for %d keys misses %q", hint, e.key)
		}
	}
}

// readTableFile writes es to a table in dir with opts and returns its bytes.
func readTableFile(t *testing.T, dir string, es []entry, opts WriterOptions) []byte {
	t.Helper()
	path, _ := writeTable(t, dir, es, opts)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// addAll adds es to a Writer with opts (into a buffer, unfinished) and
// returns it.
func addAll(t *testing.T, es []entry, opts WriterOptions) *Writer {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, opts)
	for _, e := range es {
		if err := w.Add(e.key, e.seq, e.kind, e.value); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// BenchmarkFilterBuild measures adding 500,000 keys to a Writer with a
// 10-bit filter (into memory, unfinished, then finished) with the hashes
// kept to the end ("hashes", ExpectedKeys at directFilterMin, so that the
// buffer grows by doubling from there, as without a hint) and with the
// filter built as the keys arrive ("direct", ExpectedKeys the count).
func BenchmarkFilterBuild(b *testing.B) {
	const n = 500_000
	es := sequentialEntries(n)
	for _, c := range []struct {
		name string
		hint int
	}{{"hashes", directFilterMin}, {"direct", n}} {
		b.Run(c.name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				w := NewWriter(&buf, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: c.hint})
				for _, e := range es {
					if err := w.Add(e.key, e.seq, e.kind, e.value); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := w.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
