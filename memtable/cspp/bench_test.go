package cspp

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/offsetskiplist"
	"github.com/godbbench/godbbench/memtable/skiplist"
)

// Benchmarks run cspp, the baseline skiplist and offset_skiplist side by
// side:
//
//	go test -run XXX -bench . -benchtime 500000x ./memtable/cspp/
//
// bytes/entry is ApproximateMemoryUsage divided by the entries added.

type repMaker struct {
	name string
	make func(entries int) memtable.Rep
}

var reps = []repMaker{
	{"cspp", func(n int) memtable.Rep { return New(int64(n)*160 + 1<<20) }},
	{"skiplist", func(int) memtable.Rep { return skiplist.New() }},
	{"offset_skiplist", func(n int) memtable.Rep { return offsetskiplist.New(uint64(n)*64 + 1<<20) }},
}

// keySource fills key buffers without allocating: splitmix64 for random keys.
type keySource struct {
	state uint64
	kind  string // "rand16", "rand8", "seq16", "dbb16"
	i     uint64
}

func (s *keySource) next(buf []byte) []byte {
	switch s.kind {
	case "seq16":
		s.i++
		binary.BigEndian.PutUint64(buf[:8], s.i)
		clear(buf[8:16])
		return buf[:16]
	case "dbb16": // db_bench's shape: big-endian number < 2^20, then '0' padding
		binary.BigEndian.PutUint64(buf[:8], s.mix()&(1<<20-1))
		copy(buf[8:16], "00000000")
		return buf[:16]
	case "rand8":
		binary.BigEndian.PutUint64(buf[:8], s.mix())
		return buf[:8]
	default:
		binary.BigEndian.PutUint64(buf[:8], s.mix())
		binary.BigEndian.PutUint64(buf[8:16], s.mix())
		return buf[:16]
	}
}

func (s *keySource) mix() uint64 {
	s.state += 0x9E3779B97F4A7C15
	z := s.state
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func BenchmarkAdd(b *testing.B) {
	for _, kind := range []string{"rand16", "rand8", "seq16", "dbb16", "rand16v100"} {
		for _, rm := range reps {
			b.Run(fmt.Sprintf("%s/%s", kind, rm.name), func(b *testing.B) {
				var value []byte
				if kind == "rand16v100" {
					value = make([]byte, 100)
				}
				r := rm.make(b.N + b.N*len(value)/128)
				src := keySource{kind: kind}
				var buf [16]byte
				b.ReportAllocs()
				b.ResetTimer()
				cpu := processCPU()
				for i := 0; i < b.N; i++ {
					if err := r.Add(uint64(i+1), base.KindSet, src.next(buf[:]), value); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				reportCPU(b, cpu)
				b.ReportMetric(float64(r.ApproximateMemoryUsage())/float64(b.N), "bytes/entry")
			})
		}
	}
}

// BenchmarkAddParallel inserts random 16-byte keys from GOMAXPROCS goroutines.
func BenchmarkAddParallel(b *testing.B) {
	for _, rm := range reps {
		b.Run(rm.name, func(b *testing.B) {
			r := rm.make(b.N)
			var seq, seed atomic.Uint64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				src := keySource{kind: "rand16", state: seed.Add(1) << 40}
				var buf [16]byte
				for pb.Next() {
					if err := r.Add(seq.Add(1), base.KindSet, src.next(buf[:]), nil); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64(r.ApproximateMemoryUsage())/float64(b.N), "bytes/entry")
		})
	}
}

// reportCPU adds the process CPU time per operation since start: on a
// shared, loaded machine wall time per operation also counts waiting.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

// prefillEntries is the size of the rep read benchmarks run against.
const prefillEntries = 500000

func prefill(b *testing.B, rm repMaker) memtable.Rep {
	r := rm.make(prefillEntries)
	src := keySource{kind: "rand16"}
	var buf [16]byte
	for i := 0; i < prefillEntries; i++ {
		if err := r.Add(uint64(i+1), base.KindSet, src.next(buf[:]), buf[:8]); err != nil {
			b.Fatal(err)
		}
	}
	return r
}

func BenchmarkGetHit(b *testing.B) {
	for _, rm := range reps {
		b.Run(rm.name, func(b *testing.B) {
			r := prefill(b, rm)
			var buf [16]byte
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPU()
			src := keySource{kind: "rand16"}
			for i := 0; i < b.N; i++ {
				if i%prefillEntries == 0 {
					src = keySource{kind: "rand16"} // replay the prefill keys
				}
				if _, _, ok := r.Get(src.next(buf[:]), base.MaxSeq); !ok {
					b.Fatal("miss")
				}
			}
			b.StopTimer()
			reportCPU(b, cpu)
		})
	}
}

func BenchmarkScan(b *testing.B) {
	for _, rm := range reps {
		b.Run(rm.name, func(b *testing.B) { scan(b, prefill(b, rm), prefillEntries, true) })
	}
}

// scan times b.N steps of full scans of r's n entries: First, then Next;
// with keys, it reads every entry's key and value.
func scan(b *testing.B, r memtable.Rep, n int, keys bool) {
	it := r.NewIter()
	b.ReportAllocs()
	b.ResetTimer()
	var sum int
	cpu := processCPU()
	for i := 0; i < b.N; i++ {
		if i%n == 0 {
			if !it.First() {
				b.Fatal("empty")
			}
		} else if !it.Next() {
			b.Fatal("short scan")
		}
		if keys {
			sum += len(it.Key()) + len(it.Value())
		}
	}
	b.StopTimer()
	reportCPU(b, cpu)
	if keys && sum == 0 {
		b.Fatal("nothing read")
	}
}

// BenchmarkScanReadseq is memtablerep_bench's readseq: full scans, Next
// only (no Key), over 8-byte little-endian keys 0..n-1 with no value, the
// memtable its fillseq builds.
func BenchmarkScanReadseq(b *testing.B) {
	for _, rm := range reps {
		b.Run(rm.name, func(b *testing.B) {
			r := rm.make(prefillEntries)
			var buf [8]byte
			for i := 0; i < prefillEntries; i++ {
				binary.LittleEndian.PutUint64(buf[:], uint64(i))
				if err := r.Add(uint64(i+1), base.KindSet, buf[:], nil); err != nil {
					b.Fatal(err)
				}
			}
			scan(b, r, prefillEntries, false)
		})
	}
}
