package rtable

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"slices"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/golden"
	"github.com/godbbench/godbbench/internal/rangedel"
)

// goldenTables are small tables whose exact bytes are pinned under
// testdata/ as hex dumps, so that any change to the format is deliberate.
// The first is the package doc's worked example.
var goldenTables = []goldenTable{
	{"example.hex", WriterOptions{}, []entry{
		{[]byte("key1"), 0, base.KindSet, []byte("v1")},
		{[]byte("key2"), 0, base.KindSet, []byte("v2")},
		{[]byte("key5"), 0, base.KindSet, []byte("v5")},
	}, nil},
	{"snappy.hex", WriterOptions{ValueCompression: ValueSnappy}, []entry{
		{[]byte("a"), 0, base.KindSet, []byte("abababababababababababab")},
		{[]byte("b"), 0, base.KindSet, []byte("xyz")},
		{[]byte("c"), 0, base.KindSet, nil},
	}, nil},
	{"versions.hex", WriterOptions{BloomBitsPerKey: 10}, []entry{
		{[]byte("apple"), 7, base.KindSet, []byte("red")},
		{[]byte("apple"), 5, base.KindDelete, nil},
		{[]byte("apricot"), 9, base.KindSet, []byte("orange")},
	}, nil},
	// A merge operand in the trailers column: format version 2.
	{"merge.hex", WriterOptions{}, []entry{
		{[]byte("k1"), 4, base.KindMerge, []byte("+1")},
		{[]byte("k1"), 2, base.KindSet, []byte("10")},
		{[]byte("k2"), 3, base.KindDelete, nil},
	}, nil},
	// Values coded against a dictionary (format doc's second example).
	{"dict.hex", WriterOptions{ValueCompression: ValueDict}, []entry{
		{[]byte("a"), 0, base.KindSet, []byte("abcdefghij")},
		{[]byte("b"), 0, base.KindSet, []byte("abcdefghij")},
		{[]byte("c"), 0, base.KindSet, []byte("cdefgh")},
		{[]byte("d"), 0, base.KindSet, []byte("xyz")},
	}, nil},
	// Range tombstones: format version 3 (format doc's third example).
	{"rangedel.hex", WriterOptions{}, []entry{
		{[]byte("a"), 5, base.KindSet, []byte("1")},
		{[]byte("c"), 3, base.KindSet, []byte("2")},
		{[]byte("e"), 4, base.KindDelete, nil},
	}, []rangedel.Tombstone{
		{Start: []byte("b"), End: []byte("d"), Seq: 6},
		{Start: []byte("c"), End: []byte("f"), Seq: 2},
	}},
	// A filter of 3-byte prefixes and no whole keys: format version 3.
	{"prefix.hex", WriterOptions{BloomBitsPerKey: 10, FilterPrefixLen: 3, PrefixOnlyFilter: true}, []entry{
		{[]byte("p1:a"), 0, base.KindSet, []byte("x")},
		{[]byte("p1:b"), 0, base.KindSet, []byte("y")},
		{[]byte("p2:a"), 0, base.KindSet, []byte("z")},
		{[]byte("s"), 0, base.KindSet, []byte("w")},
	}, nil},
}

// goldenTable is one pinned table: its entries, range tombstones and
// writer options.
type goldenTable struct {
	file    string
	opts    WriterOptions
	entries []entry
	dels    []rangedel.Tombstone
}

// bytes builds the table.
func (g *goldenTable) bytes(t testing.TB) []byte {
	return buildWithDels(t, g.entries, g.opts, g.dels)
}

func buildBytes(t testing.TB, es []entry, opts WriterOptions) []byte {
	t.Helper()
	return buildWithDels(t, es, opts, nil)
}

// buildWithDels builds a table of es and the range tombstones dels.
func buildWithDels(t testing.TB, es []entry, opts WriterOptions, dels []rangedel.Tombstone) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, opts)
	if len(dels) > 0 {
		w.SetRangeDels(rangedel.Build(slices.Clone(dels)))
	}
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
		b := g.bytes(t)
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
		if got, want := r.RangeDels().Encode(nil), rangedel.Build(slices.Clone(g.dels)).Encode(nil); !bytes.Equal(got, want) {
			t.Fatalf("%s: range tombstones read back as %x, want %x", g.file, got, want)
		}
		it.Close()
		r.Close()
	}
}
