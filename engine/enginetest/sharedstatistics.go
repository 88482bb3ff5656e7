package enginetest

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// RunSharedStatistics checks engine.StatisticsSharer on opener: the
// databases that the sharing opener opens with o (statistics on) count in
// one statistics object, so that each one's STATISTICS block counts the
// writes of all, of a closed one too, while a database of the plain
// opener counts its own only.
func RunSharedStatistics(t *testing.T, opener engine.Opener, o *options.Options) {
	sharer, ok := opener.(engine.StatisticsSharer)
	if !ok {
		t.Fatalf("%T is no engine.StatisticsSharer", opener)
	}
	shared := sharer.SharingStatistics()
	if _, ok := shared.(engine.StatisticsSharer); !ok {
		t.Errorf("the sharing opener %T lost the engine's interfaces", shared)
	}
	open := func(op engine.Opener) engine.DB {
		t.Helper()
		db, err := op.Open(t.TempDir(), o, nil)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	put := func(db engine.DB, n int) {
		t.Helper()
		for i := 0; i < n; i++ {
			if err := db.Put([]byte(fmt.Sprintf("key%06d", i)), []byte("value"), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	tickers := func(db engine.DB) map[string]uint64 {
		t.Helper()
		block, ok := db.Property(engine.StatisticsProperty)
		if !ok {
			t.Fatal("no STATISTICS block")
		}
		return Tickers(block)
	}
	const written = "rocksdb.number.keys.written"
	first, second, own := open(shared), open(shared), open(opener)
	defer mustClose(t, second)
	defer mustClose(t, own)
	put(first, 100)
	put(second, 200)
	put(own, 7)
	for i, db := range []engine.DB{first, second} {
		if got := tickers(db)[written]; got != 300 {
			t.Errorf("database %d of two sharing: %s %d, want 300", i, written, got)
		}
	}
	if got := tickers(own)[written]; got != 7 {
		t.Errorf("database of its own: %s %d, want 7", written, got)
	}
	walBytes := tickers(first)["rocksdb.wal.bytes"]
	mustClose(t, first)
	// A fresh database counts on in the statistics the closed one shared.
	third := open(shared)
	defer mustClose(t, third)
	put(third, 50)
	after := tickers(third)
	if got := after[written]; got != 350 {
		t.Errorf("after re-opening: %s %d, want 350", written, got)
	}
	if got := after["rocksdb.wal.bytes"]; got < walBytes {
		t.Errorf("rocksdb.wal.bytes fell from %d to %d when a sharing database closed", walBytes, got)
	}
}
