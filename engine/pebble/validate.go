package pebble

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/godbbench/godbbench/options"
)

// Option checks made before any option reaches Pebble. Pebble validates few
// of its options and panics on some values (a memtable smaller than its own
// empty skiplist panics inside pebble.Open with "attempting to allocate
// memtable larger than MemTableSize"), so every value this package passes
// on is checked here first. The rule is RocksDB's: where RocksDB clips a
// value (SanitizeOptions), the same clip is applied and reported; where
// RocksDB refuses a value, Open fails with RocksDB's words.

// minWriteBufferSize is RocksDB's lower clip for write_buffer_size (64 KiB,
// SanitizeOptions in column_family.cc). It is also well above the smallest
// memtable Pebble can open: its empty arena skiplist needs a few hundred
// bytes, and a batch of at least half a memtable goes to the LSM as its own
// flushable batch, so a 64 KiB memtable takes any write.
const minWriteBufferSize = 64 << 10

// maxWriteBufferSize is Pebble's upper limit: its memtable arena addresses
// its bytes with uint32 offsets (Options.Validate refuses 4 GiB and more).
const maxWriteBufferSize = 4 << 30

// errBlockSize is RocksDB's refusal of a block size that does not fit in 32
// bits (BlockBasedTableFactory::ValidateOptions). db_bench's --block_size is
// an int32, so a negative value reaches RocksDB as a huge size_t and gets
// this error; C++ db_bench prints "open error: " before it and exits 1.
var errBlockSize = errors.New("Invalid argument: block size exceeds maximum number (4GiB) allowed")

// memTableSize returns the memtable size for write_buffer_size, raising a
// value under minWriteBufferSize to it as RocksDB does and saying so on warn
// when the option was set explicitly (RocksDB says nothing on its streams;
// this package reports every option it does not take as given). Zero, negative values and 4 GiB or more are
// refused, naming the flag.
func memTableSize(o *options.Options, warn io.Writer) (uint64, error) {
	n := o.WriteBufferSize
	switch {
	case n <= 0:
		return 0, fmt.Errorf("pebble: write_buffer_size must be > 0, got %d", n)
	case n >= maxWriteBufferSize:
		return 0, fmt.Errorf("pebble: write_buffer_size must be < 4 GiB (Pebble's largest memtable), got %d", n)
	case n < minWriteBufferSize:
		if o.Explicit["write_buffer_size"] { // once per process: the driver clears Explicit after its first Open
			fmt.Fprintf(warn, "WARNING: engine pebble: write_buffer_size %d raised to %d, RocksDB's minimum\n",
				n, minWriteBufferSize)
		}
		return minWriteBufferSize, nil
	}
	return uint64(n), nil
}

// checkBlockSize refuses a block size RocksDB refuses. Zero keeps Pebble's
// default (4 KiB, RocksDB's too).
func checkBlockSize(o *options.Options) error {
	if o.BlockSize < 0 || int64(o.BlockSize) > math.MaxUint32 {
		return errBlockSize
	}
	return nil
}

// levelMultiplier returns Pebble's integer level multiplier for
// max_bytes_for_level_multiplier, or 0 (Pebble's default, 10) when the value
// is not an integer Pebble can use: under 2, fractional, or beyond int32,
// where the conversion to int would wrap to a negative multiplier.
func levelMultiplier(m float64) int {
	if m < 2 || m != math.Trunc(m) || m > math.MaxInt32 {
		return 0
	}
	return int(m)
}

// maxBloomBits is RocksDB's upper clip for bits per key in a bloom filter
// (BloomFilterPolicy's constructor: 100 and up become 100). Pebble takes any
// value and sizes each filter as keys x bits: --bloom_bits=100000 would make
// a 12.5 GB filter for a million keys.
const maxBloomBits = 100

// bloomBits returns the bits per key for a bloom_bits > 0, clipped as
// RocksDB clips it.
func bloomBits(n int) int { return min(n, maxBloomBits) }
