package pebble

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/bloom"

	"github.com/godbbench/godbbench/options"
)

// TestSmallWriteBufferRaised opens with write buffers Pebble cannot use as
// given (Pebble v2.1.7 panics inside Open for each of them) and writes
// through several memtables: the size is raised to RocksDB's 64 KiB minimum,
// with a warning, and everything written reads back.
func TestSmallWriteBufferRaised(t *testing.T) {
	for _, size := range []int64{1, 100, 4096, minWriteBufferSize - 1} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			o := testOptions()
			o.WriteBufferSize = size
			o.Explicit["write_buffer_size"] = true
			var warn bytes.Buffer
			db, err := Opener{}.Open(t.TempDir(), o, &warn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			want := fmt.Sprintf("WARNING: engine pebble: write_buffer_size %d raised to 65536, RocksDB's minimum\n", size)
			if !strings.Contains(warn.String(), want) {
				t.Errorf("warnings lack %q; got:\n%s", want, warn.String())
			}
			if got := db.(*DB).db.Metrics().MemTable.Size; got > 2*minWriteBufferSize {
				t.Errorf("memtables hold %d bytes", got)
			}
			value := bytes.Repeat([]byte("v"), 1000)
			for i := range 500 { // 500 KB: several memtables
				if err := db.Put(fmt.Appendf(nil, "key%06d", i), value, nil); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 500 {
				found, err := db.Get(fmt.Appendf(nil, "key%06d", i), func([]byte) {})
				if err != nil || !found {
					t.Fatalf("key %d: found %v, err %v", i, found, err)
				}
			}
		})
	}
}

// TestBlockSizeRefused checks RocksDB's refusal of a block size beyond 32
// bits, in its words, before Pebble sees the value.
func TestBlockSizeRefused(t *testing.T) {
	for _, size := range []int{-1, math.MinInt32, math.MaxUint32 + 1} {
		o := testOptions()
		o.BlockSize = size
		db, err := Opener{}.Open(t.TempDir(), o, nil)
		if err == nil {
			db.Close()
			t.Errorf("block_size %d accepted", size)
			continue
		}
		if want := "Invalid argument: block size exceeds maximum number (4GiB) allowed"; err.Error() != want {
			t.Errorf("block_size %d: error %q, want %q", size, err, want)
		}
	}
	for _, size := range []int{0, 1, 4096, math.MaxInt32} {
		o := options.Default()
		o.BlockSize = size
		cfg, err := buildConfig(o, &bytes.Buffer{}, &logger{})
		if err != nil {
			t.Errorf("block_size %d refused: %v", size, err)
			continue
		}
		cfg.cache.Unref()
	}
}

// TestLevelMultiplierRange keeps multipliers that would wrap when converted
// to int (or are not integers) away from Pebble, and warns about them.
func TestLevelMultiplierRange(t *testing.T) {
	for _, c := range []struct {
		m    float64
		want int
	}{{10, 10}, {2, 2}, {1, 0}, {0, 0}, {-4, 0}, {7.5, 0}, {math.MaxInt32, math.MaxInt32},
		{math.MaxInt32 + 1, 0}, {1e300, 0}, {math.Inf(1), 0}, {math.NaN(), 0}} {
		if got := levelMultiplier(c.m); got != c.want {
			t.Errorf("levelMultiplier(%v) = %d, want %d", c.m, got, c.want)
		}
	}
	o := options.Default()
	o.MaxBytesForLevelMultiplier = 1e300
	o.Explicit["max_bytes_for_level_multiplier"] = true
	var warn bytes.Buffer
	cfg, err := buildConfig(o, &warn, &logger{w: &warn})
	if err != nil {
		t.Fatal(err)
	}
	cfg.cache.Unref()
	if m := cfg.opts.Experimental.LevelMultiplier; m != 0 {
		t.Errorf("LevelMultiplier = %d", m)
	}
	if !strings.Contains(warn.String(), "ignores option max_bytes_for_level_multiplier") {
		t.Errorf("no warning:\n%s", warn.String())
	}
}

// TestHugeCacheSize checks that cache_size near the int64 limit does not wrap
// when the memtable budget is added.
func TestHugeCacheSize(t *testing.T) {
	o := options.Default()
	o.CacheSize = math.MaxInt64
	cfg, err := buildConfig(o, &bytes.Buffer{}, &logger{})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.cache.Unref()
	if got := cfg.cache.MaxSize(); got <= 0 {
		t.Errorf("cache size %d", got)
	}
}

// TestBloomBitsClipped checks RocksDB's clip of bits per key at 100, which
// keeps a huge --bloom_bits from sizing filters at keys x bloom_bits.
func TestBloomBitsClipped(t *testing.T) {
	for _, c := range []struct{ in, want int }{{1, 1}, {10, 10}, {100, 100}, {101, 100}, {100000, 100}, {math.MaxInt32, 100}} {
		if got := bloomBits(c.in); got != c.want {
			t.Errorf("bloomBits(%d) = %d, want %d", c.in, got, c.want)
		}
	}
	o := options.Default()
	o.BloomBits = 100000
	cfg, err := buildConfig(o, &bytes.Buffer{}, &logger{})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.cache.Unref()
	if fp, want := cfg.opts.Levels[0].FilterPolicy, bloom.FilterPolicy(100); fp != want {
		t.Errorf("filter policy %v, want %v", fp, want)
	}
}
