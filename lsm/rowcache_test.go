package lsm

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/statistics"
)

// modelRowCacheSize is the row cache size modelOptions gives the
// randomized model tests (0: none); TestRowCacheModels sets it.
var modelRowCacheSize int64

// TestRowCacheModels runs the randomized model tests, range deletions and
// merges included, with a row cache small enough (16 KiB) that rows are
// dropped and promoted all the time: every read, latest or under a
// snapshot, after flushes, compactions that move keys to new tables and
// reopens, must still equal the model.
func TestRowCacheModels(t *testing.T) {
	modelRowCacheSize = 16 << 10
	defer func() { modelRowCacheSize = 0 }()
	t.Run("rangedel", func(t *testing.T) { runRandomizedModels(t, true) })
	t.Run("merge", func(t *testing.T) { runRandomizedMergeModels(t) })
}

func openRowCacheDB(t *testing.T) (*DB, *statistics.Statistics) {
	o := testOptions()
	o.RowCacheSize = 1 << 20
	stats := statistics.New(statistics.ExceptDetailedTimers)
	db, err := Open(t.TempDir(), o, Config{Statistics: stats})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, stats
}

// TestRowCacheHitSkipsTable: the second Get of a key in a table is
// answered by the row cache, without a block cache lookup.
func TestRowCacheHitSkipsTable(t *testing.T) {
	db, stats := openRowCacheDB(t)
	put(t, db, "a", "1")
	put(t, db, "b", "2")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if v, ok := getString(t, db, "a"); !ok || v != "1" {
		t.Fatalf("first get a = %q %v", v, ok)
	}
	if h, m := stats.Ticker(statistics.RowCacheHit), stats.Ticker(statistics.RowCacheMiss); h != 0 || m != 1 {
		t.Fatalf("after the first get: row cache hits %d misses %d, want 0 1", h, m)
	}
	blockLookups := stats.Ticker(statistics.BlockCacheHit) + stats.Ticker(statistics.BlockCacheMiss)
	if v, ok := getString(t, db, "a"); !ok || v != "1" {
		t.Fatalf("second get a = %q %v", v, ok)
	}
	if h := stats.Ticker(statistics.RowCacheHit); h != 1 {
		t.Fatalf("row cache hits %d after the second get, want 1", h)
	}
	if n := stats.Ticker(statistics.BlockCacheHit) + stats.Ticker(statistics.BlockCacheMiss); n != blockLookups {
		t.Fatalf("a row cache hit looked up %d blocks", n-blockLookups)
	}
	// A key the table lacks leaves no row.
	if _, ok := getString(t, db, "c"); ok {
		t.Fatal("c found")
	}
	if _, ok := getString(t, db, "c"); ok {
		t.Fatal("c found")
	}
	if h := stats.Ticker(statistics.RowCacheHit); h != 1 {
		t.Fatalf("row cache hits %d after two gets of a missing key, want 1", h)
	}
}

// TestRowCacheSnapshotRows: a snapshot older than the table's newest
// entry gets a row of its own, and the latest read never sees its version.
func TestRowCacheSnapshotRows(t *testing.T) {
	db, stats := openRowCacheDB(t)
	put(t, db, "k", "old")
	snap := db.NewSnapshot()
	defer snap.Release()
	put(t, db, "k", "new")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	snapGet := func() string {
		var got string
		if ok, err := snap.Get([]byte("k"), func(v []byte) { got = string(v) }); err != nil || !ok {
			t.Fatalf("snapshot get: %v %v", ok, err)
		}
		return got
	}
	for i := range 3 {
		if v := snapGet(); v != "old" {
			t.Fatalf("round %d: snapshot read %q, want old", i, v)
		}
		if v, ok := getString(t, db, "k"); !ok || v != "new" {
			t.Fatalf("round %d: latest read %q %v, want new", i, v, ok)
		}
	}
	if h := stats.Ticker(statistics.RowCacheHit); h != 4 {
		t.Fatalf("row cache hits %d, want 4", h)
	}
}

// TestRowCacheGetAllocs: a Get answered by the row cache allocates
// nothing.
func TestRowCacheGetAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops getters at random under the race detector")
	}
	db, _ := openRowCacheDB(t)
	for i := range 100 {
		put(t, db, fmt.Sprintf("key%03d", i), fmt.Sprintf("value%03d", i))
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	key := []byte("key042")
	var n int
	fn := func(v []byte) { n = len(v) }
	if _, err := db.Get(key, fn); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if ok, err := db.Get(key, fn); !ok || err != nil {
			t.Fatal(ok, err)
		}
	})
	if allocs != 0 || n != len("value042") {
		t.Fatalf("a row cache hit allocated %v times (value length %d)", allocs, n)
	}
}

// TestRowCacheRing fills a small row cache many times over: the rows read
// often stay, the index never points at a dropped row, and the bytes used
// stay within the budget.
func TestRowCacheRing(t *testing.T) {
	c := newRowCache(64<<10, 0)
	key := func(i int) []byte { return fmt.Appendf(nil, "key%06d", i) }
	row := func(i int) []byte { return bytes.Repeat([]byte{byte(i)}, 20+i%200) }
	get := func(i int) ([]byte, bool) {
		k := key(i)
		return c.lookup(c.hash(7, 0, k), 7, 0, k, nil)
	}
	for i := range 20000 {
		k := key(i)
		c.insert(c.hash(7, 0, k), 7, 0, k, row(i))
		// Keys 0..9 are read after every insert.
		if i >= 10 {
			for hot := range 10 {
				if r, ok := get(hot); !ok || !bytes.Equal(r, row(hot)) {
					t.Fatalf("after %d inserts: hot row %d = %v %v", i, hot, ok, r)
				}
			}
		}
		if u := c.usage(); u > c.capacity {
			t.Fatalf("usage %d over capacity %d", u, c.capacity)
		}
	}
	s := &c.shards[0]
	for h, p := range s.index {
		if p < s.tail || p >= s.head {
			t.Fatalf("index entry %x points at %d outside [%d, %d)", h, p, s.tail, s.head)
		}
	}
	if _, ok := get(100); ok {
		t.Fatal("an old cold row outlived 20000 inserts")
	}
	if r, ok := get(19999); !ok || !bytes.Equal(r, row(19999)) {
		t.Fatal("the newest row is missing")
	}
	// Another file, or another sequence key, is another row.
	k := key(19999)
	if _, ok := c.lookup(c.hash(8, 0, k), 8, 0, k, nil); ok {
		t.Fatal("row found under another file")
	}
	if _, ok := c.lookup(c.hash(7, 5, k), 7, 5, k, nil); ok {
		t.Fatal("row found under another sequence key")
	}
}

// TestRowCacheBlobValues: a row keeps a table's blob index, not the
// value, and a hit resolves it as a miss does: after a second generation
// of values and a compaction that collects the first's blob files, reads
// through the row cache return the new values.
func TestRowCacheBlobValues(t *testing.T) {
	o := blobTestOptions(map[string]string{"enable_blob_garbage_collection": "true", "blob_garbage_collection_age_cutoff": "1.0"})
	o.RowCacheSize = 1 << 20
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	check := func(gen int) {
		t.Helper()
		for range 2 {
			for i := range 50 {
				if v, ok := getString(t, db, fmt.Sprintf("key%04d", i)); !ok || v != blobValue(i, gen) {
					t.Fatalf("generation %d: key%04d = %.30q %v", gen, i, v, ok)
				}
			}
		}
	}
	writeGeneration(t, db, 50, 1)
	check(1)
	// 50 rows of a blob index each; rows holding the 400-byte values
	// would take over 22,500 bytes.
	if u := db.rows.usage(); u == 0 || u > 50*200 {
		t.Fatalf("rows take %d bytes", u)
	}
	writeGeneration(t, db, 50, 2)
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	check(2)
}
