package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/options"
)

func testOptions() *options.Options { return options.Small() }

func mustOpen(t testing.TB, dir string, o *options.Options) *DB {
	t.Helper()
	db, err := Open(dir, o, Config{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// getString is db.Get of key as a string, failing the test on an error;
// db is a DB or anything else that gets like one (a RunReader).
func getString(t testing.TB, db interface {
	Get([]byte, func([]byte)) (bool, error)
}, key string) (string, bool) {
	t.Helper()
	var out string
	found, err := db.Get([]byte(key), func(v []byte) { out = string(v) })
	if err != nil {
		t.Fatal(err)
	}
	return out, found
}

func put(t testing.TB, db *DB, k, v string) {
	t.Helper()
	b := NewBatch()
	b.Put([]byte(k), []byte(v))
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func del(t testing.TB, db *DB, k string) {
	t.Helper()
	b := NewBatch()
	b.Delete([]byte(k))
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestBasicPutGetFlushCompactReopen(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	db := mustOpen(t, dir, o)
	const n = 5000
	for i := 0; i < n; i++ {
		put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%d", i))
	}
	for i := 0; i < n; i += 3 {
		del(t, db, fmt.Sprintf("key%06d", i))
	}
	check := func(stage string) {
		for i := 0; i < n; i++ {
			v, ok := getString(t, db, fmt.Sprintf("key%06d", i))
			if i%3 == 0 {
				if ok {
					t.Fatalf("%s: deleted key %d found", stage, i)
				}
				continue
			}
			if !ok || v != fmt.Sprintf("value%d", i) {
				t.Fatalf("%s: key %d: %q %v", stage, i, v, ok)
			}
		}
		it, err := db.NewIter(nil)
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		for ok := it.First(); ok; ok = it.Next() {
			count++
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		if want := n - (n+2)/3; count != want {
			t.Fatalf("%s: iterated %d keys, want %d", stage, count, want)
		}
	}
	check("memtable")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	check("flushed")
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	check("compacted")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	check("manual")
	if m, err := db.Metrics(); err != nil || len(m.Levels) != o.NumLevels {
		t.Fatalf("metrics: %d levels, %v", len(m.Levels), err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, dir, o)
	check("reopened")
	for i := 0; i < 100; i++ {
		put(t, db, fmt.Sprintf("key%06d", i*3), fmt.Sprintf("value%d", i*3))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, dir, o)
	defer db.Close()
	for i := 0; i < 100; i++ {
		if v, ok := getString(t, db, fmt.Sprintf("key%06d", i*3)); !ok || v != fmt.Sprintf("value%d", i*3) {
			t.Fatalf("after WAL replay: key %d: %q %v", i*3, v, ok)
		}
	}
}
