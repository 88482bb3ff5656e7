package lsm

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/sst"
)

// flushedTables writes keys, flushes, closes the DB in dir and returns
// the properties of its tables.
func flushedTables(t *testing.T, dir string, o *options.Options, keys int) []sst.Properties {
	t.Helper()
	db := mustOpen(t, dir, o)
	for i := range keys {
		put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%d", i))
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil {
		t.Fatal(err)
	}
	return blockTableProps(t, paths)
}

// TestChecksumTypeReachesTables flushes a table under each --checksum_type
// and requires its footer to name that type, and the DB to read it back.
func TestChecksumTypeReachesTables(t *testing.T) {
	for n := range 5 {
		want, err := sst.ChecksumTypeFromRocksDB(n)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		o := testOptions()
		o.ChecksumType = n
		for _, p := range flushedTables(t, dir, o, 100) {
			if p.Checksum != want {
				t.Errorf("checksum_type %d: a table is checked with %v, want %v", n, p.Checksum, want)
			}
		}
		db := mustOpen(t, dir, o)
		if v, ok := getString(t, db, "key000042"); !ok || v != "value42" {
			t.Errorf("checksum_type %d: key000042 = %q, %v after reopening", n, v, ok)
		}
		db.Close()
	}
	o := testOptions()
	o.ChecksumType = 5
	if db, err := Open(t.TempDir(), o, Config{Version: "test"}); err == nil {
		db.Close()
		t.Error("checksum_type 5 opened")
	}
}

// TestIndexCompressionFollowsOption flushes the same keys with snappy
// tables with --enable_index_compression at its default (true) and false:
// the compressed indexes must be smaller.
func TestIndexCompressionFollowsOption(t *testing.T) {
	indexBytes := func(extra map[string]string) uint64 {
		o := testOptions()
		o.CompressionType = "snappy"
		o.WriteBufferSize = 4 << 20
		o.Extra = extra
		var n uint64
		for _, p := range flushedTables(t, t.TempDir(), o, 20000) {
			n += p.IndexSize
		}
		return n
	}
	on := indexBytes(nil)
	off := indexBytes(map[string]string{indexCompressionKey: "false"})
	if on >= off {
		t.Errorf("index bytes: %d with enable_index_compression, %d without", on, off)
	}
	o := testOptions()
	o.Extra = map[string]string{indexCompressionKey: "maybe"}
	if db, err := Open(t.TempDir(), o, Config{Version: "test"}); err == nil {
		db.Close()
		t.Error("enable_index_compression=maybe opened")
	}
}

// blockTableProps opens the tables at paths and returns their properties.
func blockTableProps(t *testing.T, paths []string) []sst.Properties {
	t.Helper()
	if len(paths) == 0 {
		t.Fatal("no tables")
	}
	var props []sst.Properties
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		r, err := sst.Open(f, st.Size(), sst.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		props = append(props, *r.Properties())
		r.Close()
	}
	return props
}

// TestOptimizeFiltersForHits compacts a DB to its bottommost level: with
// optimize_filters_for_hits its tables there have no filter, without it
// they have one; lookups find every key either way.
func TestOptimizeFiltersForHits(t *testing.T) {
	for _, optimize := range []bool{false, true} {
		dir := t.TempDir()
		o := testOptions()
		o.OptimizeFiltersForHits = optimize
		db := mustOpen(t, dir, o)
		// Two overlapping passes: the tables must be merged, not moved.
		for range 2 {
			for i := range 3000 {
				put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%d", i))
			}
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Compact(nil, nil, -1); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3000; i += 97 {
			if v, ok := getString(t, db, fmt.Sprintf("key%06d", i)); !ok || v != fmt.Sprintf("value%d", i) {
				t.Fatalf("optimize=%v: key %d = %q, %v", optimize, i, v, ok)
			}
		}
		_, levels, err := db.Tables()
		if err != nil {
			t.Fatal(err)
		}
		var live []string
		for l, ts := range levels {
			for _, ti := range ts {
				if l == 0 {
					t.Fatalf("table %d left on L%d", ti.Num, l)
				}
				live = append(live, tableName(dir, ti.Num))
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		for _, p := range blockTableProps(t, live) {
			if hasFilter := p.FilterSize > 0; hasFilter == optimize {
				t.Errorf("optimize_filters_for_hits=%v: a bottommost table has filter bytes %d", optimize, p.FilterSize)
			}
		}
	}
}

// TestFormatVersionReachesTables flushes tables under --format_version 0
// and 5 with CRC32C and XXH3: only 0 with CRC32C writes format 1.
func TestFormatVersionReachesTables(t *testing.T) {
	for _, tc := range []struct {
		formatVersion, checksumType int
		want                        uint32
	}{{0, 1, 1}, {0, 4, sst.FormatVersion}, {5, 1, sst.FormatVersion}, {2, 4, sst.FormatVersion}} {
		dir := t.TempDir()
		o := testOptions()
		o.FormatVersion, o.ChecksumType = tc.formatVersion, tc.checksumType
		for _, p := range flushedTables(t, dir, o, 100) {
			if p.FormatVersion != tc.want {
				t.Errorf("format_version %d, checksum_type %d: a table of format %d, want %d", tc.formatVersion, tc.checksumType, p.FormatVersion, tc.want)
			}
		}
		db := mustOpen(t, dir, o)
		if v, ok := getString(t, db, "key000042"); !ok || v != "value42" {
			t.Errorf("format_version %d: key000042 = %q, %v after reopening", tc.formatVersion, v, ok)
		}
		db.Close()
	}
}

// TestPartitionFlagsReachTables flushes tables under the options
// --partition_index_and_filters and --metadata_block_size 1 set: they are
// partitioned (format version 3, one index partition per data block), and the DB
// reads them back, also with --cache_index_and_filter_blocks (the
// partitions then go through the block cache); without the flags the
// index is whole.
func TestPartitionFlagsReachTables(t *testing.T) {
	for _, v := range []struct{ partitioned, cached bool }{{false, false}, {true, false}, {true, true}} {
		partitioned := v.partitioned
		dir := t.TempDir()
		o := testOptions()
		o.BloomBits = 10
		o.CacheIndexAndFilterBlocks = v.cached
		if partitioned {
			o.Extra = map[string]string{indexTypeKey: "kTwoLevelIndexSearch", partitionFiltersKey: "true", metadataBlockSizeKey: "1"}
		}
		most := 0
		for _, p := range flushedTables(t, dir, o, 3000) {
			if (p.IndexPartitions > 0) != partitioned || (p.FormatVersion == 3) != partitioned {
				t.Errorf("partitioned %v: a table of format version %d has %d index partitions", partitioned, p.FormatVersion, p.IndexPartitions)
			}
			most = max(most, p.IndexPartitions)
		}
		if partitioned && most < 2 {
			t.Errorf("no table has more than %d index partitions", most)
		}
		db := mustOpen(t, dir, o)
		for _, k := range []int{0, 1234, 2999} {
			if v, ok := getString(t, db, fmt.Sprintf("key%06d", k)); !ok || v != fmt.Sprintf("value%d", k) {
				t.Errorf("partitioned %v: key%06d = %q, %v after reopening", partitioned, k, v, ok)
			}
		}
		if _, ok := getString(t, db, "key003000"); ok {
			t.Errorf("partitioned %v: found an absent key", partitioned)
		}
		db.Close()
	}
}
