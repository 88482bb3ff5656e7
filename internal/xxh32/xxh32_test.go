package xxh32

import "testing"

// patterned returns n bytes (i*7+3) mod 251, the input of the vectors below.
func patterned(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte((i*7 + 3) % 251)
	}
	return b
}

// The vectors are the results of ROCKSDB_XXH32 in Debian's librocksdb 7.8.3
// for patterned(n), with seed 0 and with seed 0x9747b28c; every length class
// of the algorithm is covered (empty, tail bytes only, tail words, one and
// several stripes with and without a tail).
var vectors = []struct {
	n            int
	seed0, seedX uint32
}{
	{0, 0x02cc5d05, 0x8d3b42d8},
	{1, 0x21ae663a, 0xb32e6d59},
	{3, 0xcd3d2242, 0x8513982b},
	{4, 0x725479f2, 0xfe53286c},
	{7, 0xf3a90eb0, 0xd86d2d0d},
	{15, 0x82d3c84d, 0x6a9c0ce1},
	{16, 0x8845547d, 0xbe544ede},
	{17, 0x450e5f84, 0xeb0d3c4a},
	{31, 0x1f73d3c7, 0xd1fc525f},
	{32, 0xe988ccb7, 0xb7a4f0c0},
	{100, 0x8dc319f2, 0xfd1a30b1},
	{4096, 0xef989ede, 0xb176e6ca},
}

func TestChecksumVectors(t *testing.T) {
	for _, v := range vectors {
		data := patterned(v.n)
		if got := Checksum(data, 0); got != v.seed0 {
			t.Errorf("XXH32(%d bytes, 0) = %#08x, want %#08x", v.n, got, v.seed0)
		}
		if got := Checksum(data, 0x9747b28c); got != v.seedX {
			t.Errorf("XXH32(%d bytes, 0x9747b28c) = %#08x, want %#08x", v.n, got, v.seedX)
		}
	}
}

// TestChecksumOfDbBenchBlock checks the input db_bench's xxhash benchmark
// hashes: 4096 bytes of 'x' (ROCKSDB_XXH32 gives 0xdbc32435).
func TestChecksumOfDbBenchBlock(t *testing.T) {
	block := make([]byte, 4096)
	for i := range block {
		block[i] = 'x'
	}
	if got := Checksum(block, 0); got != 0xdbc32435 {
		t.Errorf("XXH32 of 4096 'x' = %#08x, want 0xdbc32435", got)
	}
}

func TestChecksumAllocatesNothing(t *testing.T) {
	data := patterned(4096)
	if n := testing.AllocsPerRun(100, func() { Checksum(data, 0) }); n != 0 {
		t.Errorf("Checksum allocates %v times a call", n)
	}
}

func BenchmarkChecksum4K(b *testing.B) {
	data := patterned(4096)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Checksum(data, 0)
	}
}
