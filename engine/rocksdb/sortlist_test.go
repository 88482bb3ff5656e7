//go:build rocksdb

package rocksdb

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

func openSortList(t *testing.T) engine.DB {
	t.Helper()
	o := testOptions()
	o.MergeOperator = "sortlist"
	db := openWith(t, o)(filepath.Join(t.TempDir(), "db"))
	t.Cleanup(func() { db.Close() })
	return db
}

func getString(t *testing.T, db engine.DB, key []byte) (string, error) {
	t.Helper()
	var got string
	found, err := db.Get(key, func(v []byte) { got = string(v) })
	if err == nil && !found {
		t.Fatalf("Get(%q): not found", key)
	}
	return got, err
}

// TestSortListReadsOperandsOnly reads an operand that sits in a table
// block right before an entry whose header starts with a comma (44 bytes
// shared with the next key) and a tab: RocksDB's own SortList reads on past
// the operand to a NUL byte and dies in std::stoi on the bytes after the
// tab, taking the test process with it; the engine's reads "7" alone.
func TestSortListReadsOperandsOnly(t *testing.T) {
	db := openSortList(t)
	prefix := bytes.Repeat([]byte("k"), ',')
	merged, next := append(prefix[:len(prefix):len(prefix)], 'a'), append(prefix[:len(prefix):len(prefix)], 'b')
	wo := &engine.WriteOptions{}
	if err := db.Merge(merged, []byte("7"), wo); err != nil {
		t.Fatal(err)
	}
	if err := db.Put(next, []byte("x"), wo); err != nil {
		t.Fatal(err)
	}
	for _, where := range []string{"memtable", "table"} {
		if where == "table" {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := getString(t, db, merged); err != nil || got != "7" {
			t.Errorf("%s: Get = %q, %v; want \"7\"", where, got, err)
		}
	}
}

// TestSortListKeepsOperandsWhole flushes three operands of one key: RocksDB's
// SortList::PartialMergeMulti would replace them by an empty operand that
// no full merge can read; the engine's declines, so the Get merges all
// three.
func TestSortListKeepsOperandsWhole(t *testing.T) {
	db := openSortList(t)
	key := []byte("list")
	for _, operand := range []string{"1,5", "3", "2,9"} {
		if err := db.Merge(key, []byte(operand), &engine.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, err := getString(t, db, key); err != nil || got != "1,2,3,5,9" {
		t.Errorf("Get = %q, %v; want \"1,2,3,5,9\"", got, err)
	}
}

// TestSortListFailsWhereStoiThrows wants a failed Get, not an abort, for
// operands std::stoi refuses, and the operands' values where it reads them.
func TestSortListFailsWhereStoiThrows(t *testing.T) {
	db := openSortList(t)
	cases := []struct{ operand, want string }{
		{"", ""},
		{"abc", ""},
		{"1,,2", ""},
		{"2147483648", ""},
		{"-2147483649", ""},
		{" +4,-3", "4,-3"}, // one list is not sorted, only merged
		{"-2147483648,2147483647", "-2147483648,2147483647"},
		{"12abc,30x", "12,30"},
		{"5,6\x00,junk", "5,6"},
	}
	for i, c := range cases {
		key := []byte{'c', byte('a' + i)}
		if err := db.Merge(key, []byte(c.operand), &engine.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		got, err := getString(t, db, key)
		if c.want == "" {
			if err == nil || !strings.Contains(err.Error(), "merge") {
				t.Errorf("operand %q: Get = %q, %v; want a failed merge", c.operand, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("operand %q: Get = %q, %v; want %q", c.operand, got, err, c.want)
		}
	}
}
