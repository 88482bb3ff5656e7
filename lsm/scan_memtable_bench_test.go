package lsm

import (
	"math/rand"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// scanShapeKeys and scanShapeUpdates shape a DB as db_bench leaves it after
// updaterandom at --num=1000000: every key in compacted tables, and a
// memtable holding newer versions of about a third of them, written in
// random order.
const (
	scanShapeKeys    = 1_000_000
	scanShapeUpdates = 300_000
)

// BenchmarkScanMemtableOverLevel steps a DB iterator over that shape,
// forward and backward. The merge alternates between the memtable, whose
// nodes lie in insertion order and so far apart, and the tables' blocks;
// one op is one step with its value read.
func BenchmarkScanMemtableOverLevel(b *testing.B) {
	o := options.Default()
	db, err := Open(b.TempDir(), o, Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	fill(b, db, scanShapeKeys)
	if err := db.Compact(nil, nil, -1); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	batch := NewBatch()
	key := make([]byte, 16)
	value := make([]byte, 100)
	for range scanShapeUpdates {
		batch.Reset()
		batch.Put(benchKey(key, uint64(rng.Intn(scanShapeKeys))), value)
		if err := db.Write(batch, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	for _, reverse := range []bool{false, true} {
		name := "forward"
		if reverse {
			name = "reverse"
		}
		b.Run(name, func(b *testing.B) { scanSteps(b, db, false, reverse) })
	}
}
