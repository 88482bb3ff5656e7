package pebble

import (
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// TestBlockCacheGetsCacheSize checks that blocks get cache_size despite
// Pebble charging memtables to the cache, on a fresh and on a reopened DB.
func TestBlockCacheGetsCacheSize(t *testing.T) {
	o := options.Default()
	o.CacheSize = 1 << 20
	o.WriteBufferSize = 4 << 20
	dir := t.TempDir()
	db := openTest(t, o)(dir)
	key, val := make([]byte, 16), make([]byte, 100)
	const n = 30000 // 3.5 MB of data: more than the cache holds
	for i := 0; i < n; i++ {
		binary.BigEndian.PutUint64(key, uint64(i))
		if err := db.Put(key, val, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	fn := func([]byte) {}
	for round := 0; round < 2; round++ {
		d := db.(*DB)
		d.budget.adjust(memtableReservation(d.db)) // what the poller does every 100 ms
		for i := 0; i < 20000; i++ {
			binary.BigEndian.PutUint64(key, uint64(i)*2654435761%n)
			if found, err := db.Get(key, fn); err != nil || !found {
				t.Fatalf("Get: %v %v", found, err)
			}
		}
		c := d.db.Metrics().BlockCache
		t.Logf("round %d: block cache %d bytes, %d blocks, %d hits, %d misses", round, c.Size, c.Count, c.Hits, c.Misses)
		// Per-shard rounding lets the cache run a little over.
		if c.Size < o.CacheSize/2 || c.Size > o.CacheSize*11/10 {
			t.Errorf("round %d: block cache holds %d bytes, want about %d", round, c.Size, o.CacheSize)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		db = openTest(t, o)(dir)
	}
	db.Close()
}

func TestCacheBudgetAdjust(t *testing.T) {
	o := options.Default()
	var warn nopWriter
	cfg, err := buildConfig(o, warn, &logger{w: warn})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.cache.Unref()
	b := newCacheBudget(cfg.cache, 100)
	for _, c := range []struct{ mem, held int64 }{{0, 100}, {30, 70}, {100, 0}, {250, 0}, {40, 60}, {100, 0}} {
		b.adjust(c.mem)
		if b.held != c.held || (b.release != nil) != (c.held > 0) {
			t.Fatalf("memtables %d: held %d (release set %v), want %d", c.mem, b.held, b.release != nil, c.held)
		}
	}
	close(b.stop) // never started; close must still release
	b.adjust(b.target)
	if b.held != 0 || b.release != nil {
		t.Fatalf("held %d after release", b.held)
	}
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
