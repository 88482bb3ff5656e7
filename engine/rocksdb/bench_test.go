//go:build rocksdb

package rocksdb

// Benchmarks of the engine against the same calls made through grocksdb
// (github.com/linxGnu/grocksdb v1.7.15), the usual Go binding, on the same
// library. Run:
//
//	go test -tags rocksdb -run XXX -bench . -benchtime 200000x ./engine/rocksdb/

import (
	"encoding/binary"
	"testing"

	"github.com/linxGnu/grocksdb"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

const benchKeys = 100000

// benchCacheSize holds all 100k x 116 B of table data, so Get and iteration
// measure the in-memory path (and the binding's cost) rather than page-cache
// reads.
const benchCacheSize = 64 << 20

func benchKey(buf []byte, i int) []byte {
	binary.BigEndian.PutUint64(buf[8:], uint64(i%benchKeys))
	return buf
}

func openBenchEngine(b *testing.B) engine.DB {
	o := options.Default()
	o.CacheSize = benchCacheSize
	db, err := Opener{}.Open(b.TempDir(), o, nil)
	if err != nil {
		b.Fatal(err)
	}
	return db
}

func fillEngine(b *testing.B, db engine.DB) {
	key, val := make([]byte, 16), make([]byte, 100)
	wo := &engine.WriteOptions{DisableWAL: true}
	for i := 0; i < benchKeys; i++ {
		if err := db.Put(benchKey(key, i), val, wo); err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		b.Fatal(err)
	}
}

func openBenchGrocksdb(b *testing.B) (*grocksdb.DB, func()) {
	bbto := grocksdb.NewDefaultBlockBasedTableOptions()
	cache := grocksdb.NewLRUCache(benchCacheSize)
	bbto.SetBlockCache(cache)
	opts := grocksdb.NewDefaultOptions()
	opts.SetCreateIfMissing(true)
	opts.SetEnablePipelinedWrite(true) // as db_bench, so Put paths compare
	opts.SetBlockBasedTableFactory(bbto)
	db, err := grocksdb.OpenDb(opts, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	return db, func() { db.Close(); opts.Destroy(); bbto.Destroy(); cache.Destroy() }
}

func fillGrocksdb(b *testing.B, db *grocksdb.DB) {
	key, val := make([]byte, 16), make([]byte, 100)
	wo := grocksdb.NewDefaultWriteOptions()
	wo.DisableWAL(true)
	defer wo.Destroy()
	for i := 0; i < benchKeys; i++ {
		if err := db.Put(wo, benchKey(key, i), val); err != nil {
			b.Fatal(err)
		}
	}
	fo := grocksdb.NewDefaultFlushOptions()
	fo.SetWait(true)
	defer fo.Destroy()
	if err := db.Flush(fo); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkPut(b *testing.B) {
	b.Run("engine", func(b *testing.B) {
		db := openBenchEngine(b)
		defer db.Close()
		key, val := make([]byte, 16), make([]byte, 100)
		wo := &engine.WriteOptions{DisableWAL: true}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if err := db.Put(benchKey(key, i), val, wo); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("grocksdb", func(b *testing.B) {
		db, done := openBenchGrocksdb(b)
		defer done()
		key, val := make([]byte, 16), make([]byte, 100)
		wo := grocksdb.NewDefaultWriteOptions()
		wo.DisableWAL(true)
		defer wo.Destroy()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if err := db.Put(wo, benchKey(key, i), val); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkGet(b *testing.B) {
	b.Run("engine", func(b *testing.B) {
		db := openBenchEngine(b)
		defer db.Close()
		fillEngine(b, db)
		key := make([]byte, 16)
		var n int
		fn := func(v []byte) { n += len(v) }
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if found, err := db.Get(benchKey(key, i*7919), fn); !found || err != nil {
				b.Fatal(found, err)
			}
		}
	})
	b.Run("grocksdb", func(b *testing.B) {
		db, done := openBenchGrocksdb(b)
		defer done()
		fillGrocksdb(b, db)
		key := make([]byte, 16)
		ro := grocksdb.NewDefaultReadOptions()
		defer ro.Destroy()
		var n int
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			h, err := db.GetPinned(ro, benchKey(key, i*7919))
			if err != nil || !h.Exists() {
				b.Fatal(err)
			}
			n += len(h.Data())
			h.Destroy()
		}
	})
}

func BenchmarkIterate(b *testing.B) {
	b.Run("engine", func(b *testing.B) {
		db := openBenchEngine(b)
		defer db.Close()
		fillEngine(b, db)
		it, err := db.NewIter(nil)
		if err != nil {
			b.Fatal(err)
		}
		defer it.Close()
		it.First()
		var n int
		b.ReportAllocs()
		for b.Loop() {
			if !it.Next() {
				it.First()
			}
			v, _ := it.Value()
			n += len(it.Key()) + len(v)
		}
	})
	b.Run("grocksdb", func(b *testing.B) {
		db, done := openBenchGrocksdb(b)
		defer done()
		fillGrocksdb(b, db)
		ro := grocksdb.NewDefaultReadOptions()
		defer ro.Destroy()
		it := db.NewIterator(ro)
		defer it.Close()
		it.SeekToFirst()
		var n int
		b.ReportAllocs()
		for b.Loop() {
			it.Next()
			if !it.Valid() {
				it.SeekToFirst()
			}
			n += len(it.Key().Data()) + len(it.Value().Data())
		}
	})
}

// BenchmarkSeekNext10 is seekrandom with --seek_nexts=10: a seek and ten
// steps per op, runs too short to be batched.
func BenchmarkSeekNext10(b *testing.B) {
	db := openBenchEngine(b)
	defer db.Close()
	fillEngine(b, db)
	it, err := db.NewIter(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	key := make([]byte, 16)
	var n int
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		it.SeekGE(benchKey(key, i*7919))
		for j := 0; j < 10 && it.Valid(); j++ {
			v, _ := it.Value()
			n += len(it.Key()) + len(v)
			it.Next()
		}
	}
}

// BenchmarkMultiGet8 looks up 8 keys per op (db_bench's default
// --multiread_batched batch size).
func BenchmarkMultiGet8(b *testing.B) {
	mkKeys := func() [][]byte {
		keys := make([][]byte, 8)
		for i := range keys {
			keys[i] = make([]byte, 16)
		}
		return keys
	}
	b.Run("engine", func(b *testing.B) {
		db := openBenchEngine(b)
		defer db.Close()
		fillEngine(b, db)
		mg := db.(engine.Runner)
		keys, found := mkKeys(), make([]bool, 8)
		var n int
		fn := func(_ int, v []byte) { n += len(v) }
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			for j := range keys {
				benchKey(keys[j], (i*8+j)*7919)
			}
			if err := mg.MultiGet(keys, found, fn); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("grocksdb", func(b *testing.B) {
		db, done := openBenchGrocksdb(b)
		defer done()
		fillGrocksdb(b, db)
		ro := grocksdb.NewDefaultReadOptions()
		defer ro.Destroy()
		keys := mkKeys()
		var n int
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			for j := range keys {
				benchKey(keys[j], (i*8+j)*7919)
			}
			vals, err := db.MultiGet(ro, keys...)
			if err != nil {
				b.Fatal(err)
			}
			for _, v := range vals {
				n += len(v.Data())
			}
			vals.Destroy()
		}
	})
}
