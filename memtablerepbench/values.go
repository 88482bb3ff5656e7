package memtablerepbench

import "github.com/godbbench/godbbench/internal/cxxrand"

// randomString is RocksDB's Random::RandomString: each byte ' ' + Uniform(95).
// memtablerep_bench's value bytes are randomString(Random(301), max(1 MiB,
// item_size)): printable and incompressible.
func randomString(r *cxxrand.ParkMiller, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' ' + byte(r.Uniform(95))
	}
	return b
}
