package sst

import (
	"bytes"
	"os"
	"testing"
)

// TestExpectedKeysSizesTheHashBuffer: a Writer told how many keys to
// expect collects the filter's hashes in one buffer of that size (no
// regrowth), and the table it writes is byte for byte the one written
// without the hint, for any hint.
func TestExpectedKeysSizesTheHashBuffer(t *testing.T) {
	const n = 2000
	es := sequentialEntries(n)
	dir := t.TempDir()
	want, _ := writeTable(t, dir, es, WriterOptions{BloomBitsPerKey: 10})
	wantBytes, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, hint := range []int{10, n, 3 * n} {
		path, _ := writeTable(t, dir, es, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: hint})
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, wantBytes) {
			t.Errorf("ExpectedKeys %d changed the table", hint)
		}
	}
	var buf bytes.Buffer
	w := NewWriter(&buf, WriterOptions{BloomBitsPerKey: 10, ExpectedKeys: n})
	for _, e := range es {
		if err := w.Add(e.key, e.seq, e.kind, e.value); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.hashes) != n || cap(w.hashes) != n {
		t.Errorf("hash buffer len %d cap %d after %d keys expected, want %d and %d", len(w.hashes), cap(w.hashes), n, n, n)
	}
}
