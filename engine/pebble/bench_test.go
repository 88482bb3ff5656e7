package pebble

import (
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// The benchmarks use db_bench's defaults (64 MiB memtable, 8 MiB cache,
// snappy, no bloom filter), 16-byte keys and 100-byte values, like
// `db_bench --key_size=16 --value_size=100`. Run with e.g.
//
//	go test -run XXX -bench . -benchtime 200000x ./engine/pebble/

const benchKeys = 100000

// benchCacheSize overrides the 8 MiB cache when > 0 (the 11.6 MB of data
// then fits).
var benchCacheSize int64

func benchDB(b *testing.B, fill bool) engine.DB {
	o := options.Default()
	if benchCacheSize > 0 {
		o.CacheSize = benchCacheSize
	}
	db := openTest(b, o)(b.TempDir())
	if fill {
		key, val := make([]byte, 16), make([]byte, 100)
		batch := db.NewBatch()
		for i := 0; i < benchKeys; i++ {
			binary.BigEndian.PutUint64(key, uint64(i))
			batch.Put(key, val)
			if batch.Count() == 1000 {
				if err := db.Apply(batch, nil); err != nil {
					b.Fatal(err)
				}
				batch.Reset()
			}
		}
		batch.Close()
		if err := db.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	return db
}

func BenchmarkPut(b *testing.B) {
	db := benchDB(b, false)
	defer db.Close()
	key, val := make([]byte, 16), make([]byte, 100)
	wo := &engine.WriteOptions{}
	b.ReportAllocs()
	b.SetBytes(116)
	for i := 0; i < b.N; i++ {
		binary.BigEndian.PutUint64(key, uint64(i)*2654435761%benchKeys)
		if err := db.Put(key, val, wo); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGet(b *testing.B) {
	db := benchDB(b, true)
	defer db.Close()
	key := make([]byte, 16)
	var n int
	fn := func(v []byte) { n += len(v) }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		binary.BigEndian.PutUint64(key, uint64(i)*2654435761%benchKeys)
		if found, err := db.Get(key, fn); err != nil || !found {
			b.Fatalf("Get: %v %v", found, err)
		}
	}
}

func BenchmarkIterNext(b *testing.B) {
	db := benchDB(b, true)
	defer db.Close()
	it, err := db.NewIter(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	var n int
	b.ReportAllocs()
	b.ResetTimer()
	it.First()
	for i := 0; i < b.N; i++ {
		if !it.Next() {
			it.First()
		}
		v, err := it.Value()
		if err != nil {
			b.Fatal(err)
		}
		n += len(it.Key()) + len(v)
	}
}

func BenchmarkSeek(b *testing.B) {
	db := benchDB(b, true)
	defer db.Close()
	key := make([]byte, 16)
	opts := &engine.IterOptions{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A fresh iterator per seek, as db_bench seekrandom does.
		it, err := db.NewIter(opts)
		if err != nil {
			b.Fatal(err)
		}
		binary.BigEndian.PutUint64(key, uint64(i)*2654435761%benchKeys)
		if !it.SeekGE(key) {
			b.Fatal("SeekGE found nothing")
		}
		it.Close()
	}
}
