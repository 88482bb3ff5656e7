package native

import (
	"testing"

	"github.com/godbbench/godbbench/engine/enginetest"
	"github.com/godbbench/godbbench/options"
)

// TestRocksDBReps runs the engine conformance and concurrency suites with
// RocksDB's vector and prefix-hashed memtables: flushes, reopens, snapshots
// and iterators over them must behave as over the skiplist.
func TestRocksDBReps(t *testing.T) {
	for _, c := range []struct {
		rep        string
		prefixSize int
	}{{"vector", 0}, {"prefix_hash:1024", 3}, {"hash_linkedlist:1024", 1}} {
		open := openWith(t, func(o *options.Options) { o.Memtablerep, o.PrefixSize = c.rep, c.prefixSize })
		t.Run(c.rep, func(t *testing.T) {
			enginetest.RunConformance(t, open)
			enginetest.RunConcurrency(t, open)
		})
	}
}
