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

// benchValueSize is the value length: memtablerep_bench's --item_size=50.
const benchValueSize = 50

// BenchRep runs the standard memtable benchmarks on reps from newRep, with
// memtablerep_bench's 8-byte little-endian keys:
//
//	AddSeq     ascending inserts (ns per insert)
//	AddRandom  inserts in random order
//	Get        random point lookups in a full memtable, all hits
//	Scan       Next over a full memtable
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
}

// reportCPU reports the process CPU time per operation since start.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}
