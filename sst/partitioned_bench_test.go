package sst

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// Partitioned index and filters against a whole index and filter, on
// 1M-entry tables of the k16v100 shape (4 KiB blocks, 10 bloom bits per
// key), all read with a 256 MiB block cache warmed by a scan of the whole
// table, so that the index and filter work is what differs; cpu-ns/op is
// the process's CPU time per operation (bench_test.go's reportCPU):
//
//	go test -run XXX -bench Partitioned -benchtime 200000x -count 3 ./sst/
//
// "whole" is a version 2 table; "partitioned" a version 3 table with
// partitioned index and filters (4 KiB partitions), read with the
// partitions in the Reader; "partitioned+cache" the same table read with
// CacheIndexAndFilterBlocks. BenchmarkPartitionedOpen reports the heap a
// Reader keeps (resident-B) and the index and filter bytes on disk.

var partitionedVariants = []struct {
	name      string
	partition bool
	lazy      bool
}{{"whole", false, false}, {"partitioned", true, false}, {"partitioned+cache", true, true}}

// openWarm opens the variant's table with a 256 MiB cache and scans it,
// values included, so that every data block is cached.
func openWarm(b *testing.B, partition, lazy bool) *Reader {
	r := openTable(b, partitionedBenchTable(b, partition), ReaderOptions{Cache: NewCache(256<<20, -1), CacheIndexAndFilterBlocks: lazy})
	it := r.NewIter()
	for ok := it.First(); ok; ok = it.Next() {
		if _, err := it.Value(); err != nil {
			b.Fatal(err)
		}
	}
	if err := it.Close(); err != nil {
		b.Fatal(err)
	}
	return r
}

// partitionedBenchTable builds (once per run) the table of the variant.
func partitionedBenchTable(b *testing.B, partition bool) string {
	s := benchShapes[0]
	name := s.name + ".whole"
	if partition {
		name = s.name + ".partitioned"
	}
	benchFiles(b, s) // makes benchDir
	path := filepath.Join(benchDir, name)
	benchMu.Lock()
	defer benchMu.Unlock()
	if _, err := os.Stat(path); err == nil {
		return path
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := NewWriter(f, WriterOptions{BlockSize: 4096, BlockRestartInterval: 16, BloomBitsPerKey: 10,
		PartitionIndex: partition, PartitionFilters: partition, MetadataBlockSize: 4096})
	rng := rand.New(rand.NewPCG(1, 1))
	key, value := make([]byte, s.keyLen), make([]byte, s.valueLen)
	for i := range uint64(benchEntries) {
		benchValue(rng, value)
		if err := w.Add(benchKey(key, 2*i, s.keyLen), 0, base.KindSet, value); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := w.Finish(); err != nil {
		b.Fatal(err)
	}
	return path
}

func BenchmarkPartitionedOpen(b *testing.B) {
	for _, v := range partitionedVariants {
		b.Run(v.name, func(b *testing.B) {
			path := partitionedBenchTable(b, v.partition)
			var ms runtime.MemStats
			resident, meta := uint64(0), uint64(0)
			for range b.N {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				before := ms.HeapAlloc
				r := openTable(b, path, ReaderOptions{Cache: NewCache(256<<20, -1), CacheIndexAndFilterBlocks: v.lazy})
				runtime.GC()
				runtime.ReadMemStats(&ms)
				resident = max(resident, ms.HeapAlloc-min(before, ms.HeapAlloc))
				meta = r.Properties().IndexSize + r.Properties().FilterSize
				r.Close()
			}
			b.ReportMetric(float64(resident), "resident-B")
			b.ReportMetric(float64(meta), "index+filter-B")
		})
	}
}

func BenchmarkPartitionedGet(b *testing.B) {
	for _, v := range partitionedVariants {
		for _, hit := range []bool{true, false} {
			name := v.name + "/miss"
			if hit {
				name = v.name + "/hit"
			}
			b.Run(name, func(b *testing.B) {
				r := openWarm(b, v.partition, v.lazy)
				defer r.Close()
				key := make([]byte, 16)
				rng := rand.New(rand.NewPCG(2, 2))
				found := 0
				fn := func([]byte, base.Kind, uint64) {}
				b.ResetTimer()
				defer reportCPU(b, processCPU())
				for range b.N {
					n := 2 * rng.Uint64N(benchEntries)
					if !hit {
						n++
					}
					ok, err := r.Get(benchKey(key, n, 16), base.MaxSeq, fn)
					if err != nil {
						b.Fatal(err)
					}
					if ok {
						found++
					}
				}
				if hit && found != b.N || !hit && found != 0 {
					b.Fatalf("found %d of %d", found, b.N)
				}
			})
		}
	}
}

func BenchmarkPartitionedSeek(b *testing.B) {
	for _, v := range partitionedVariants {
		b.Run(v.name, func(b *testing.B) {
			r := openWarm(b, v.partition, v.lazy)
			defer r.Close()
			it := r.NewIter()
			defer it.Close()
			key := make([]byte, 16)
			rng := rand.New(rand.NewPCG(3, 3))
			b.ResetTimer()
			defer reportCPU(b, processCPU())
			for range b.N {
				if !it.SeekGE(benchKey(key, rng.Uint64N(2*benchEntries-1), 16)) {
					b.Fatal(it.Error())
				}
			}
		})
	}
}
