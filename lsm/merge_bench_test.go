package lsm

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/godbbench/godbbench/mergeop"
)

const mergeBenchKeys = 50000

func openWithUint64Add(b *testing.B) *DB {
	op, _ := mergeop.Lookup("uint64add")
	db, err := Open(b.TempDir(), benchOptions(), Config{MergeOperator: op})
	if err != nil {
		b.Fatal(err)
	}
	return db
}

// BenchmarkMergeRandom is db_bench's mergerandom on uint64add: DB.Merge of
// an 8-byte operand to a random key.
func BenchmarkMergeRandom(b *testing.B) {
	db := openWithUint64Add(b)
	defer db.Close()
	key := make([]byte, 16)
	operand := binary.LittleEndian.AppendUint64(nil, 1)
	rng := rand.New(rand.NewSource(1))
	b.ReportAllocs()
	b.SetBytes(24)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := db.Merge(benchKey(key, uint64(rng.Intn(1000000))), operand, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadRandomMergedTables reads keys each made of a value and two
// operands in three tables (flushed apart, not compacted): every Get
// merges.
func BenchmarkReadRandomMergedTables(b *testing.B) {
	db := openWithUint64Add(b)
	defer db.Close()
	key := make([]byte, 16)
	operand := binary.LittleEndian.AppendUint64(nil, 1)
	for round := 0; round < 3; round++ {
		for i := 0; i < mergeBenchKeys; i++ {
			var err error
			if round == 0 {
				batch := NewBatch()
				batch.Put(benchKey(key, uint64(i)), operand)
				err = db.Write(batch, WriteOptions{})
			} else {
				err = db.Merge(benchKey(key, uint64(i)), operand, WriteOptions{})
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := db.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	rng := rand.New(rand.NewSource(1))
	var sum uint64
	fn := func(v []byte) { sum += binary.LittleEndian.Uint64(v) }
	b.ReportAllocs()
	defer startThreadCPU(b)()
	for i := 0; i < b.N; i++ {
		found, err := db.Get(benchKey(key, uint64(rng.Intn(mergeBenchKeys))), fn)
		if err != nil || !found {
			b.Fatal(found, err)
		}
	}
	if sum != 3*uint64(b.N) {
		b.Fatalf("merged sum %d, want %d", sum, 3*b.N)
	}
}
