package pebble

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// TestPrefixComparerIsBytewise checks the properties Pebble's Split
// must have (internal/base's Split doc) over keys of 0 to 6 bytes from a
// small alphabet, and that the order stays bytewise. (pebble.CheckComparer
// also wants a prefix stripped of leading bytes to stay a prefix, which
// a fixed length cannot give and only the synthetic prefixes of ingested
// tables, which this engine never makes, need.)
func TestPrefixComparerIsBytewise(t *testing.T) {
	c := prefixComparer(4)
	var keys [][]byte
	var gen func(k []byte)
	gen = func(k []byte) {
		keys = append(keys, k)
		if len(k) < 6 {
			for _, b := range []byte{0, 'a', 0xff} {
				gen(append(slices.Clip(k), b))
			}
		}
	}
	gen(nil)
	for _, a := range keys {
		pa, sa := a[:c.Split(a)], a[c.Split(a):]
		if len(sa) > 0 && c.Compare(pa, a) >= 0 {
			t.Fatalf("prefix %q does not sort before %q", pa, a)
		}
		for _, b := range keys {
			pb, sb := b[:c.Split(b)], b[c.Split(b):]
			cmp, pcmp := c.Compare(a, b), c.Compare(pa, pb)
			if cmp != bytes.Compare(a, b) || (cmp <= 0 && pcmp > 0) || (pcmp < 0 && cmp >= 0) ||
				(pcmp == 0 && cmp != c.ComparePointSuffixes(sa, sb)) {
				t.Fatalf("keys %q and %q: compare %d, prefixes %d", a, b, cmp, pcmp)
			}
		}
	}
	for _, k := range []string{"", "a", "ab\xff"} {
		if c.Split([]byte(k)) != len(k) {
			t.Errorf("Split(%q) = %d, want the whole key", k, c.Split([]byte(k)))
		}
	}
	for _, tc := range []struct{ in, want string }{{"ab", "ab\x00"}, {"abcd", "abce"}, {"ab\xff\xff", "ac"}} {
		if got := string(c.ImmediateSuccessor(nil, []byte(tc.in))); got != tc.want {
			t.Errorf("ImmediateSuccessor(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPrefixSameAsStart writes keys under 4-byte prefixes and checks that
// a prefix seek walks exactly its prefix's keys, Gets find every key and
// miss absent ones, and a DB made without the prefix extractor is
// refused by one with it.
func TestPrefixSameAsStart(t *testing.T) {
	dir := t.TempDir()
	o := options.Small()
	o.PrefixSize = 4
	o.Read.PrefixSameAsStart = true
	db, err := Opener{}.Open(dir, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for p := 0; p < 20; p += 2 {
		for k := range 3 {
			if err := db.Put(fmt.Appendf(nil, "p%02d:%d", p, k), []byte("v"), &engine.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if p == 10 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	for p := range 20 {
		it, err := db.NewIter(nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for ok := it.SeekGE(fmt.Appendf(nil, "p%02d:", p)); ok; ok = it.Next() {
			got = append(got, string(it.Key()))
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		want := ""
		if p%2 == 0 {
			want = fmt.Sprintf("p%02d:0 p%02d:1 p%02d:2", p, p, p)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("prefix seek to p%02d walked %q, want %q", p, got, want)
		}
		found, err := db.Get(fmt.Appendf(nil, "p%02d:1", p), func([]byte) {})
		if err != nil || found != (p%2 == 0) {
			t.Errorf("Get(p%02d:1) = %v, %v", p, found, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// The same DB under another prefix length, and a DB without one.
	o.PrefixSize = 5
	if db, err := (Opener{}).Open(dir, o, nil); err == nil {
		db.Close()
		t.Fatal("a DB made with prefix length 4 opened with 5")
	} else if !strings.Contains(err.Error(), prefixComparerName(4)) {
		t.Errorf("refusal %q does not name the DB's comparer", err)
	}
	plain := t.TempDir()
	db, err = Opener{}.Open(plain, options.Small(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	o.PrefixSize = 4
	if db, err := (Opener{}).Open(plain, o, nil); err == nil {
		db.Close()
		t.Fatal("a DB made without a prefix extractor opened with one")
	}
}
