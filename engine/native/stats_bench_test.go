package native

import (
	"fmt"
	"io"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// BenchmarkStatsProperty measures one rocksdb.stats dump (what
// --stats_per_interval does every interval) on a DB with tables in several
// levels.
func BenchmarkStatsProperty(b *testing.B) {
	o := options.Default()
	o.WriteBufferSize = 256 << 10
	o.TargetFileSizeBase = 64 << 10
	o.MaxBytesForLevelBase = 256 << 10
	d, err := Opener{}.Open(b.TempDir(), o, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for i := range 50000 {
		if err := d.Put(fmt.Appendf(nil, "key%08d", i*7919%50000), []byte("a value of some thirty bytes.."), nil); err != nil {
			b.Fatal(err)
		}
	}
	if err := d.WaitForCompactions(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := d.Property("rocksdb.stats"); !ok {
			b.Fatal("no rocksdb.stats")
		}
	}
}
