package memtabletest

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// benchEntries is the fixed size of the memtables the benchmarks use, so
// the cost per operation does not depend on b.N (a rep that grows with b.N
// makes ns/op meaningless across runs).
const benchEntries = 200_000

// amidWorkEntries is the size of the memtable ScanAmidWork and
// ReverseAmidWork walk: about 70 MB with 50-byte values, twice the 32 MiB
// last-level cache of the machine in docs/BENCHMARKS.md.
const amidWorkEntries = 1_000_000

// benchValueSize is the value length: memtablerep_bench's --item_size=50.
const benchValueSize = 50

// BenchRep runs the standard memtable benchmarks on reps from newRep, with
// memtablerep_bench's 8-byte little-endian keys:
//
//	AddSeq     ascending inserts (ns per insert)
//	AddRandom  inserts in random order
//	Get        random point lookups in a full memtable, all hits
//	Scan       Next over a full memtable
//	ScanAmidWork, ReverseAmidWork
//	           Next (Prev) over a full memtable, reading each entry's key
//	           and value with Work(x, 100) between steps: what a DB
//	           iterator does around a memtable's step, where a rep that
//	           prefetches the next entry hides its miss
//
// Each reports bytes/entry, the rep's ApproximateMemoryUsage divided by the
// entry count, and cpu-ns/op, the process's CPU time per operation (which,
// unlike ns/op, does not count the time spent waiting for a core on a
// loaded machine).
func BenchRep(b *testing.B, newRep func() memtable.Rep) {
	order := rand.New(rand.NewPCG(1, 2)).Perm(benchEntries)
	value := make([]byte, benchValueSize)
	fill := func(b *testing.B, r memtable.Rep, keys []int) {
		var k [8]byte
		for i, key := range keys {
			binary.LittleEndian.PutUint64(k[:], uint64(key))
			if err := r.Add(uint64(i)+1, base.KindSet, k[:], value); err != nil {
				b.Fatal(err)
			}
		}
	}
	seqOrder := make([]int, benchEntries)
	for i := range seqOrder {
		seqOrder[i] = i
	}
	add := func(b *testing.B, keys []int) {
		var r memtable.Rep
		var k [8]byte
		var usage uint64
		cpu := processCPU()
		for i := 0; i < b.N; i++ {
			j := i % benchEntries
			if j == 0 {
				b.StopTimer()
				if r != nil {
					usage = r.ApproximateMemoryUsage()
				}
				r = newRep()
				b.StartTimer()
			}
			binary.LittleEndian.PutUint64(k[:], uint64(keys[j]))
			if err := r.Add(uint64(j)+1, base.KindSet, k[:], value); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
		if usage == 0 {
			usage = r.ApproximateMemoryUsage() * benchEntries / uint64(r.Len())
		}
		b.ReportMetric(float64(usage)/benchEntries, "bytes/entry")
	}
	b.Run("AddSeq", func(b *testing.B) { add(b, seqOrder) })
	b.Run("AddRandom", func(b *testing.B) { add(b, order) })

	full := newRep()
	fill(b, full, order)
	b.Run("Get", func(b *testing.B) {
		var k [8]byte
		cpu := processCPU()
		for i := 0; i < b.N; i++ {
			binary.LittleEndian.PutUint64(k[:], uint64(order[i%benchEntries]))
			if _, _, ok := full.Get(k[:], base.MaxSeq); !ok {
				b.Fatal("key not found")
			}
		}
		reportCPU(b, cpu)
		b.ReportMetric(float64(full.ApproximateMemoryUsage())/benchEntries, "bytes/entry")
	})
	b.Run("Scan", func(b *testing.B) {
		it := full.NewIter()
		ok := false
		cpu := processCPU()
		for i := 0; i < b.N; i++ {
			if !ok {
				ok = it.First()
				continue
			}
			ok = it.Next()
		}
		reportCPU(b, cpu)
	})
	// The scans amid work walk a memtable larger than the last-level cache
	// (amidWorkEntries), built by the first of them, so that each step to
	// a node inserted far from the last one misses to memory.
	var big memtable.Rep
	amidWork := func(b *testing.B, backward bool) {
		if big == nil {
			b.StopTimer()
			big = newRep()
			fill(b, big, rand.New(rand.NewPCG(3, 4)).Perm(amidWorkEntries))
			b.StartTimer()
		}
		it := big.NewIter()
		ok := false
		var x uint64
		cpu := processCPU()
		for i := 0; i < b.N; i++ {
			switch {
			case !ok && backward:
				ok = it.Last()
			case !ok:
				ok = it.First()
			default:
				x += uint64(it.Key()[0]) + uint64(len(it.Value()))
				x = Work(x, 100)
				if backward {
					ok = it.Prev()
				} else {
					ok = it.Next()
				}
			}
		}
		reportCPU(b, cpu)
		Sink = x
	}
	b.Run("ScanAmidWork", func(b *testing.B) { amidWork(b, false) })
	b.Run("ReverseAmidWork", func(b *testing.B) { amidWork(b, true) })
}

// Sink takes the result of benchmarks' Work, so that the compiler keeps it.
var Sink uint64

// Work stands for what a DB iterator does between two steps of a memtable
// iterator (the merge's comparisons, the tables' steps): n dependent
// multiply-adds of about 1 ns each on x, touching no memory.
func Work(x uint64, n int) uint64 {
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// reportCPU reports the process CPU time per operation since start.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}
