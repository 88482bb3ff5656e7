package native

import (
	"encoding/binary"
	"io"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// BenchmarkStatistics measures Get (from tables, through the block cache
// and bloom filters), Put and iterator Next with --statistics off and on
// at db_bench's default stats_level, single-threaded and in parallel
// (GOMAXPROCS goroutines sharing the counters).
func BenchmarkStatistics(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			o := options.Default()
			o.Statistics = on
			d, err := Opener{}.Open(b.TempDir(), o, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			const n = 100000
			key, value := make([]byte, 16), make([]byte, 100)
			for i := range n {
				binary.BigEndian.PutUint64(key, uint64(i)*2654435761%n)
				if err := d.Put(key, value, nil); err != nil {
					b.Fatal(err)
				}
			}
			if err := d.Flush(); err != nil {
				b.Fatal(err)
			}
			fn := func([]byte) {}
			b.Run("Get", func(b *testing.B) {
				i := uint64(0)
				for b.Loop() {
					i = (i + 7919) % n
					binary.BigEndian.PutUint64(key, i)
					d.Get(key, fn)
				}
			})
			b.Run("GetParallel", func(b *testing.B) {
				b.RunParallel(func(pb *testing.PB) {
					k := make([]byte, 16)
					i := uint64(0)
					for pb.Next() {
						i = (i + 7919) % n
						binary.BigEndian.PutUint64(k, i)
						d.Get(k, fn)
					}
				})
			})
			b.Run("Put", func(b *testing.B) {
				i := uint64(0)
				for b.Loop() {
					i = (i + 7919) % n
					binary.BigEndian.PutUint64(key, i)
					d.Put(key, value, nil)
				}
			})
			b.Run("Next", func(b *testing.B) {
				it, err := d.NewIter(nil)
				if err != nil {
					b.Fatal(err)
				}
				defer it.Close()
				it.First()
				for b.Loop() {
					if !it.Next() {
						it.First()
					}
				}
			})
		})
	}
}
