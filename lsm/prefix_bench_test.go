package lsm

import (
	"math/rand"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// prefixBenchKeys are the even positions of [0, 2 × prefixBenchKeys):
// a read of an odd position misses inside the key range, and its 8-byte
// prefix (benchKey's position) is absent too.
const prefixBenchKeys = 100000

// prefixBenchDB is a DB of prefixBenchKeys keys under o, in the memtable
// or compacted into tables.
func prefixBenchDB(b *testing.B, o *options.Options, tables bool) *DB {
	o.WriteBufferSize = 64 << 20
	db, err := Open(b.TempDir(), o, Config{})
	if err != nil {
		b.Fatal(err)
	}
	batch := NewBatch()
	key := make([]byte, 16)
	value := make([]byte, 100)
	for i := range prefixBenchKeys {
		batch.Reset()
		batch.Put(benchKey(key, uint64(2*i)), value)
		if err := db.Write(batch, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	if tables {
		if err := db.Compact(nil, nil, -1); err != nil {
			b.Fatal(err)
		}
	}
	return db
}

// prefixBenchConfigs are the DB settings compared: no extractor, and
// --prefix_size=8 --memtable_bloom_size_ratio=0.1 or without the memtable
// bloom, all with 10 bloom bits per key, over block tables, and two of
// them over rtable tables.
var prefixBenchConfigs = []struct {
	name string
	opts func() *options.Options
}{
	{"none", func() *options.Options {
		o := benchOptions()
		o.BloomBits = 10
		return o
	}},
	{"prefix8", func() *options.Options {
		o := benchOptions()
		o.BloomBits, o.PrefixSize, o.MemtableBloomSizeRatio = 10, 8, 0.1
		return o
	}},
	{"prefix8-nomembloom", func() *options.Options {
		o := benchOptions()
		o.BloomBits, o.PrefixSize = 10, 8
		return o
	}},
	// The same two over rtable tables below L0.
	{"rtable-none", func() *options.Options {
		o := rtableOptions()
		o.BloomBits = 10
		return o
	}},
	{"rtable-prefix8-nomembloom", func() *options.Options {
		o := rtableOptions()
		o.BloomBits, o.PrefixSize = 10, 8
		return o
	}},
}

// BenchmarkPrefixGet is readrandom with half the reads missing, with and
// without a prefix extractor and memtable bloom.
func BenchmarkPrefixGet(b *testing.B) {
	for _, where := range []string{"memtable", "tables"} {
		for _, c := range prefixBenchConfigs {
			b.Run(where+"/"+c.name, func(b *testing.B) {
				db := prefixBenchDB(b, c.opts(), where == "tables")
				defer db.Close()
				key := make([]byte, 16)
				rng := rand.New(rand.NewSource(1))
				b.ReportAllocs()
				defer startThreadCPU(b)()
				for range b.N {
					if _, err := db.Get(benchKey(key, uint64(rng.Intn(2*prefixBenchKeys))), nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPrefixSeek is seekrandom (a new iterator per seek, no Next)
// with half the seeks to absent prefixes: prefix_same_as_start under the
// extractor, total order without.
func BenchmarkPrefixSeek(b *testing.B) {
	for _, where := range []string{"memtable", "tables"} {
		for _, c := range prefixBenchConfigs {
			b.Run(where+"/"+c.name, func(b *testing.B) {
				db := prefixBenchDB(b, c.opts(), where == "tables")
				defer db.Close()
				key := make([]byte, 16)
				rng := rand.New(rand.NewSource(1))
				io := &IterOptions{PrefixSameAsStart: true}
				b.ReportAllocs()
				defer startThreadCPU(b)()
				for range b.N {
					it, err := db.NewIter(io)
					if err != nil {
						b.Fatal(err)
					}
					it.SeekGE(benchKey(key, uint64(rng.Intn(2*prefixBenchKeys))))
					if err := it.Close(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
