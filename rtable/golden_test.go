package rtable

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/golden"
)

// goldenTables are small tables whose exact bytes are pinned under
// testdata/ as hex dumps, so that any change to the format is deliberate.
// The first is the package doc's worked example.
var goldenTables = []struct {
	file    string
	opts    WriterOptions
	entries []entry
}{
	{"example.hex", WriterOptions{}, []entry{
		{[]byte("key1"), 0, base.KindSet, []byte("v1")},
		{[]byte("key2"), 0, base.KindSet, []byte("v2")},
		{[]byte("key5"), 0, base.KindSet, []byte("v5")},
	}},
	{"snappy.hex", WriterOptions{ValueCompression: ValueSnappy}, []entry{
		{[]byte("a"), 0, base.KindSet, []byte("abababababababababababab")},
		{[]byte("b"), 0, base.KindSet, []byte("xyz")},
		{[]byte("c"), 0, base.KindSet, nil},
	}},
	{"versions.hex", WriterOptions{BloomBitsPerKey: 10}, []entry{
		{[]byte("apple"), 7, base.KindSet, []byte("red")},
		{[]byte("apple"), 5, base.KindDelete, nil},
		{[]byte("apricot"), 9, base.KindSet, []byte("orange")},
	}},
	// A merge operand in the trailers column: format version 2.
	{"merge.hex", WriterOptions{}, []entry{
		{[]byte("k1"), 4, base.KindMerge, []byte("+1")},
		{[]byte("k1"), 2, base.KindSet, []byte("10")},
		{[]byte("k2"), 3, base.KindDelete, nil},
	}},
	// Values coded against a dictionary (format doc's second example).
	{"dict.hex", WriterOptions{ValueCompression: ValueDict}, []entry{
		{[]byte("a"), 0, base.KindSet, []byte("abcdefghij")},
		{[]byte("b"), 0, base.KindSet, []byte("abcdefghij")},
		{[]byte("c"), 0, base.KindSet, []byte("cdefgh")},
		{[]byte("d"), 0, base.KindSet, []byte("xyz")},
	}},
}

func buildBytes(t testing.TB, es []entry, opts WriterOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, opts)
	for _, e := range es {
		if err := w.Add(e.key, e.seq, e.kind, e.value); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGoldenTable pins the bytes of the golden tables and reads each back
// from the pinned bytes.
func TestGoldenTable(t *testing.T) {
	for _, g := range goldenTables {
		b := buildBytes(t, g.entries, g.opts)
		golden.Check(t, filepath.Join("testdata", g.file), hex.Dump(b))
		r, err := openFile(t, b)
		if err != nil {
			t.Fatal(err)
		}
		it := r.NewIter()
		i := 0
		for ok := it.First(); ok; ok = it.Next() {
			checkEntry(t, it, model(g.entries), i)
			i++
		}
		if i != len(g.entries) {
			t.Fatalf("%s: read %d of %d entries", g.file, i, len(g.entries))
		}
		it.Close()
		r.Close()
	}
}
