package lsm

import (
	"math/rand"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// The shape of db_bench's point reads at its defaults after fillrandom and
// overwrite: a 64 MiB write buffer, an 8 MiB block cache, snappy, values
// that compress to half their size, tables several times the cache, and a
// memtable holding recent overwrites of a fraction of the keys.
const (
	defaultsShapeKeys       = 300000
	defaultsShapeOverwrites = 100000
)

// openDefaultsShapeWith opens a DB under options o filled in that shape:
// every key in compacted tables, then defaultsShapeOverwrites random
// overwrites left in the memtable.
func openDefaultsShapeWith(b *testing.B, o *options.Options) *DB {
	db, err := Open(b.TempDir(), o, Config{})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	value := make([]byte, 100)
	put := func(i uint64) {
		// Half random bytes, half zeros: db_bench's compression ratio 0.5.
		rng.Read(value[:50])
		batch := NewBatch()
		batch.Put(benchKey(make([]byte, 16), i), value)
		if err := db.Write(batch, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	for i := range uint64(defaultsShapeKeys) {
		put(i)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		b.Fatal(err)
	}
	for range defaultsShapeOverwrites {
		put(uint64(rng.Intn(defaultsShapeKeys)))
	}
	return db
}

// BenchmarkGetDefaultsShape is readrandom at db_bench's defaults: most
// keys are read from the tables, past a memtable that does not hold them,
// and most table reads miss the block cache. One sub-benchmark per table
// format (--table_format).
func BenchmarkGetDefaultsShape(b *testing.B) { overTableFormats(b, benchmarkGetDefaultsShape) }

func benchmarkGetDefaultsShape(b *testing.B, o *options.Options) {
	db := openDefaultsShapeWith(b, o)
	defer db.Close()
	key := make([]byte, 16)
	rng := rand.New(rand.NewSource(2))
	var sink int
	fn := func(v []byte) { sink += len(v) }
	b.ReportAllocs()
	defer startThreadCPU(b)()
	for range b.N {
		found, err := db.Get(benchKey(key, uint64(rng.Intn(defaultsShapeKeys))), fn)
		if err != nil || !found {
			b.Fatal(found, err)
		}
	}
}

// BenchmarkSeekDefaultsShape is seekrandom at db_bench's defaults: an
// iterator per seek, as db_bench makes it. One sub-benchmark per table
// format.
func BenchmarkSeekDefaultsShape(b *testing.B) { overTableFormats(b, benchmarkSeekDefaultsShape) }

// overTableFormats runs bench at db_bench's defaults once per table
// format, as sub-benchmarks named by the format.
func overTableFormats(b *testing.B, bench func(*testing.B, *options.Options)) {
	for _, format := range []string{options.TableFormatBlock, options.TableFormatRTable} {
		b.Run(format, func(b *testing.B) {
			o := options.Default()
			o.TableFormat = format
			bench(b, o)
		})
	}
}

func benchmarkSeekDefaultsShape(b *testing.B, o *options.Options) {
	db := openDefaultsShapeWith(b, o)
	defer db.Close()
	key := make([]byte, 16)
	rng := rand.New(rand.NewSource(2))
	b.ReportAllocs()
	defer startThreadCPU(b)()
	for range b.N {
		it, err := db.NewIter(nil)
		if err != nil {
			b.Fatal(err)
		}
		if !it.SeekGE(benchKey(key, uint64(rng.Intn(defaultsShapeKeys)))) {
			b.Fatal("seek found nothing")
		}
		if err := it.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPutDefaultsShape is fillrandom's write into a memtable at
// db_bench's defaults: the CPU of the writing thread only. Run it with
// -benchtime=300000x to stay within one memtable (a 64 MiB buffer holds
// about 400,000 such entries).
func BenchmarkPutDefaultsShape(b *testing.B) {
	db, err := Open(b.TempDir(), options.Default(), Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewSource(1))
	key, value := make([]byte, 16), make([]byte, 100)
	rng.Read(value[:50])
	batch := NewBatch()
	b.ReportAllocs()
	defer startThreadCPU(b)()
	for range b.N {
		batch.Reset()
		batch.Put(benchKey(key, rng.Uint64()%1000000), value)
		if err := db.Write(batch, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
