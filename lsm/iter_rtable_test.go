package lsm

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/rtable"
)

// rtableEntry is one entry of a test table.
type rtableEntry struct {
	key   string
	seq   uint64
	kind  base.Kind
	value string
}

// writeRTable writes entries (in internal order) as an rtable table and
// opens it.
func writeRTable(t *testing.T, entries []rtableEntry) *rtable.Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "000009.sst")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	w := rtable.NewWriter(bw, rtable.WriterOptions{BloomBitsPerKey: 10})
	for _, e := range entries {
		if err := w.Add([]byte(e.key), e.seq, e.kind, []byte(e.value)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rf, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rf.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := rtable.Open(rf, st.Size(), rtable.ReaderOptions{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestRTableIterWalks walks a table of 1,000 entries (several versions of
// some keys, deletions, values of varying length) through rtableIter in
// both directions, from every kind of positioning, with and without
// KeysOnly, asking for the value of every entry (a KeysOnly walk loads it
// alone): every entry, its sequence number, kind and value must be the
// table's, in order, across refills of every size.
func TestRTableIterWalks(t *testing.T) {
	var entries []rtableEntry
	for i := 0; len(entries) < 1000; i++ {
		key := fmt.Sprintf("key%06d", i*3)
		for v := i % 3; v >= 0; v-- {
			e := rtableEntry{key: key, seq: uint64(10*i + v + 1), kind: base.KindSet}
			if (i+v)%7 == 0 {
				e.kind = base.KindDelete
			} else {
				e.value = fmt.Sprintf("value-%d-%d-%0*d", i, v, i%40, 0)
			}
			entries = append(entries, e)
		}
	}
	r := writeRTable(t, entries)
	check := func(it *rtableIter, ok bool, from, step int, what string) {
		t.Helper()
		move, end := it.Next, len(entries)
		if step < 0 {
			move, end = it.Prev, -1
		}
		i := from
		for ; ok; ok = move() {
			if i < 0 || i >= len(entries) {
				t.Fatalf("%s: entry %q past the table's end", what, it.Key())
			}
			e := entries[i]
			if string(it.Key()) != e.key || it.Seq() != e.seq || it.Kind() != e.kind {
				t.Fatalf("%s: entry %d is %q seq %d kind %d, want %q seq %d kind %d",
					what, i, it.Key(), it.Seq(), it.Kind(), e.key, e.seq, e.kind)
			}
			v, err := it.Value()
			if err != nil || string(v) != e.value {
				t.Fatalf("%s: value of entry %d (%q) is %q, %v; want %q", what, i, e.key, v, err, e.value)
			}
			i += step
		}
		if it.Error() != nil || i != end {
			t.Fatalf("%s: stopped at entry %d of %d with error %v", what, i, len(entries), it.Error())
		}
	}
	for _, keysOnly := range []bool{false, true} {
		it := new(rtableIter)
		it.reset(r, keysOnly)
		name := fmt.Sprintf("keysOnly=%v", keysOnly)
		check(it, it.First(), 0, 1, name+" First")
		check(it, it.Last(), len(entries)-1, -1, name+" Last")
		for _, at := range []int{0, 1, 499, 500, 997, len(entries) - 1} {
			check(it, it.SeekGE([]byte(entries[at].key)), firstOf(entries, at), 1, fmt.Sprintf("%s SeekGE(%s)", name, entries[at].key))
			check(it, it.SeekLT([]byte(entries[at].key)), firstOf(entries, at)-1, -1, fmt.Sprintf("%s SeekLT(%s)", name, entries[at].key))
		}
		if it.SeekGE([]byte("zzz")) || it.Error() != nil {
			t.Fatalf("%s: SeekGE past the end: valid, or error %v", name, it.Error())
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// firstOf is the index of the first entry of entries[at]'s user key.
func firstOf(entries []rtableEntry, at int) int {
	for at > 0 && entries[at-1].key == entries[at].key {
		at--
	}
	return at
}
