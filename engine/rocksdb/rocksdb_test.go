//go:build rocksdb

package rocksdb

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/engine/enginetest"
	"github.com/godbbench/godbbench/options"
)

// testOptions are small so that tests flush and compact quickly.
func testOptions() *options.Options {
	o := options.Default()
	o.WriteBufferSize = 1 << 20
	o.CacheSize = 1 << 20
	return o
}

func openWith(t *testing.T, o *options.Options) func(dir string) engine.DB {
	return enginetest.OpenWith(t, Opener{}, o)
}

func TestConformance(t *testing.T) {
	enginetest.RunConformance(t, openWith(t, testOptions()))
}

func TestConformanceNoCacheZstdPerLevel(t *testing.T) {
	o := testOptions()
	o.CacheSize = 0
	o.CompressionPerLevel = []string{"none", "snappy", "zstd"}
	o.BloomBits = 10
	enginetest.RunConformance(t, openWith(t, o))
}

// TestMerge runs the merge suite, GetMergeOperands included.
func TestMerge(t *testing.T) {
	enginetest.RunMerge(t, enginetest.MergeOpenWith(t, Opener{}, testOptions()), true)
}

func TestConcurrency(t *testing.T) {
	enginetest.RunConcurrency(t, openWith(t, testOptions()))
}

func TestInfo(t *testing.T) {
	info := Opener{}.Info()
	if info.Name != "rocksdb" || info.Version != "7.8.3" || info.VersionLine != "RocksDB:    version 7.8.3" {
		t.Fatalf("info %+v", info)
	}
	op, err := engine.Lookup("rocksdb")
	if err != nil || op == nil {
		t.Fatalf("lookup: %v", err)
	}
}

// latestOptionsFile returns the text of the newest OPTIONS-* RocksDB wrote.
func latestOptionsFile(t *testing.T, dir string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "OPTIONS-*"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no OPTIONS file in %s (%v)", dir, err)
	}
	latest := m[0]
	for _, p := range m {
		if p > latest {
			latest = p
		}
	}
	b, err := os.ReadFile(latest)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parsedOptions reads back what RocksDB applied, through our own parser.
func parsedOptions(t *testing.T, dir string) *options.OptionsFile {
	t.Helper()
	f, err := options.ParseOptionsFile(strings.NewReader(latestOptionsFile(t, dir)), dir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func expectOption(t *testing.T, f *options.OptionsFile, title, name, want string) {
	t.Helper()
	s := f.FirstSection(title)
	if s == nil {
		t.Fatalf("no section %s", title)
	}
	got, ok := s.Get(name)
	if !ok || got != want {
		t.Errorf("%s %s = %q (present %v), want %q", title, name, got, ok, want)
	}
}

func TestOptionsApplied(t *testing.T) {
	o := options.Default()
	o.WriteBufferSize = 3 << 20
	o.MaxWriteBufferNumber = 5
	o.NumLevels = 5
	o.Level0FileNumCompactionTrigger = 7
	o.TargetFileSizeBase = 8 << 20
	o.MaxBytesForLevelBase = 32 << 20
	o.MaxBytesForLevelMultiplier = 8
	o.MaxBytesForLevelMultiplierAdditional = []int{1, 1, 2, 1, 1}
	o.MinLevelToCompress = 2
	o.CompressionType = "zstd"
	o.CompressionLevel = 3
	o.BlockSize = 8192
	o.BlockRestartInterval = 8
	o.BloomBits = 10
	o.CacheIndexAndFilterBlocks = true
	o.FormatVersion = 4
	o.BytesPerSync = 1 << 20
	o.MaxBackgroundJobs = 3
	o.CompactionPri = 1
	o.DelayedWriteRate = 1 << 20
	o.TableCacheNumShardBits = 5
	o.EnablePipelinedWrite = false
	o.Subcompactions = 2
	o.DisableAutoCompactions = true
	dir := t.TempDir()
	db := openWith(t, o)(dir)
	defer db.Close()
	f := parsedOptions(t, dir)
	for _, c := range []struct{ title, name, want string }{
		{options.SectionCF, "write_buffer_size", "3145728"},
		{options.SectionCF, "max_write_buffer_number", "5"},
		{options.SectionCF, "num_levels", "5"},
		{options.SectionCF, "level0_file_num_compaction_trigger", "7"},
		{options.SectionCF, "target_file_size_base", "8388608"},
		{options.SectionCF, "max_bytes_for_level_base", "33554432"},
		{options.SectionCF, "max_bytes_for_level_multiplier", "8.000000"},
		{options.SectionCF, "max_bytes_for_level_multiplier_additional", "1:1:2:1:1"},
		{options.SectionCF, "compression", "kZSTD"},
		{options.SectionCF, "compression_per_level", "kNoCompression:kNoCompression:kZSTD:kZSTD:kZSTD"},
		{options.SectionCF, "compaction_pri", "kOldestLargestSeqFirst"},
		{options.SectionCF, "disable_auto_compactions", "true"},
		{options.SectionDB, "bytes_per_sync", "1048576"},
		{options.SectionDB, "max_background_jobs", "3"},
		{options.SectionDB, "delayed_write_rate", "1048576"},
		{options.SectionDB, "table_cache_numshardbits", "5"},
		{options.SectionDB, "enable_pipelined_write", "false"},
		{options.SectionDB, "max_subcompactions", "2"},
		{options.SectionTablePrefix + "BlockBasedTable", "block_size", "8192"},
		{options.SectionTablePrefix + "BlockBasedTable", "block_restart_interval", "8"},
		{options.SectionTablePrefix + "BlockBasedTable", "filter_policy", "bloomfilter:10:false"},
		{options.SectionTablePrefix + "BlockBasedTable", "cache_index_and_filter_blocks", "true"},
		{options.SectionTablePrefix + "BlockBasedTable", "format_version", "4"},
	} {
		expectOption(t, f, c.title, c.name, c.want)
	}
	v, _ := f.FirstSection(options.SectionCF).Get("compression_opts")
	if !strings.Contains(v, "level=3;") {
		t.Errorf("compression_opts %q lacks level=3", v)
	}
}

// compareWithDBBench checks that every option in the OPTIONS file db_bench
// wrote (testdata name) has the same value in the one RocksDB wrote for o.
func compareWithDBBench(t *testing.T, o *options.Options, name string) {
	t.Helper()
	o.ChecksumType = 4 // see TestDefaultsMatchDBBench
	dir := t.TempDir()
	openWith(t, o)(dir).Close()
	ours := parsedOptions(t, dir)
	ref, err := os.Open(filepath.Join("..", "..", "options", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	theirs, err := options.ParseOptionsFile(ref, name)
	if err != nil {
		t.Fatal(err)
	}
	// Skipped: options naming the host or paths, and listeners (db_bench
	// registers its own error listener).
	skip := map[string]bool{"db_host_id": true, "wal_dir": true, "db_log_dir": true, "listeners": true}
	for _, title := range []string{options.SectionDB, options.SectionCF, options.SectionTablePrefix + "BlockBasedTable"} {
		a, b := theirs.FirstSection(title), ours.FirstSection(title)
		for _, e := range a.Entries {
			if skip[e.Name] {
				continue
			}
			got, ok := b.Get(e.Name)
			if !ok || got != e.Value {
				t.Errorf("[%s] %s: db_bench %q, ours %q", title, e.Name, e.Value, got)
			}
		}
	}
}

// TestDefaultsMatchDBBench compares with the OPTIONS file of
// "db_bench --benchmarks=fillseq --num=1000". Note: options.Default() has
// checksum_type 1, but db_bench 7.8.3's default is 4 (kXXH3, "db_bench
// --help": "-checksum_type ... default: 4"), so the comparison pins 4.
func TestDefaultsMatchDBBench(t *testing.T) {
	compareWithDBBench(t, options.Default(), "OPTIONS-dbbench-default")
}

// TestFlagsMatchDBBench compares with the OPTIONS file of
// "db_bench --benchmarks=fillseq --num=1000 --min_level_to_compress=2
// --bloom_bits=10 --cache_index_and_filter_blocks=true
// --write_buffer_size=1048576
// --max_bytes_for_level_multiplier_additional=1,1,1,1,1,1,2
// --memtablerep=vector --allow_concurrent_memtable_write=false --prefix_size=4".
func TestFlagsMatchDBBench(t *testing.T) {
	o := options.Default()
	o.MinLevelToCompress = 2
	o.BloomBits = 10
	o.CacheIndexAndFilterBlocks = true
	o.WriteBufferSize = 1048576
	o.MaxBytesForLevelMultiplierAdditional = []int{1, 1, 1, 1, 1, 1, 2}
	o.Memtablerep = "vector"
	o.AllowConcurrentMemtableWrite = false
	o.PrefixSize = 4
	compareWithDBBench(t, o, "OPTIONS-dbbench-tuned")
}

func TestHyperClockCache(t *testing.T) {
	o := testOptions()
	o.CacheType = "hyper_clock_cache"
	dir := t.TempDir()
	db := openWith(t, o)(dir)
	defer db.Close()
	db.Put([]byte("k"), []byte("v"), nil)
	db.Flush()
	if found, err := db.Get([]byte("k"), func([]byte) {}); !found || err != nil {
		t.Fatalf("get: %v %v", found, err)
	}
	if s, _ := db.Property("rocksdb.block-cache-capacity"); s != "1048576" {
		t.Fatalf("block cache capacity %q", s)
	}
}

func TestChecksumType(t *testing.T) {
	o := options.Default()
	o.ChecksumType = 4
	dir := t.TempDir()
	openWith(t, o)(dir).Close()
	expectOption(t, parsedOptions(t, dir), options.SectionTablePrefix+"BlockBasedTable", "checksum", "kXXH3")
}

// TestSharedStatistics: the DBs of SharingStatistics hold one statistics
// object, as db_bench's hold its dbstats.
func TestSharedStatistics(t *testing.T) {
	o := options.Default()
	o.CacheSize = 1 << 20
	o.Statistics = true
	enginetest.RunSharedStatistics(t, Opener{}, o)
}

func TestOptionsFileLoadedByRocksDB(t *testing.T) {
	o := options.Default()
	ini := filepath.Join("..", "..", "options", "testdata", "per_level_compression.ini")
	if _, err := options.LoadOptionsFile(ini, o); err != nil {
		t.Fatal(err)
	}
	o.CacheSize = 1 << 20
	o.Statistics = true
	dir := t.TempDir()
	db := openWith(t, o)(dir)
	defer db.Close()
	f := parsedOptions(t, dir)
	expectOption(t, f, options.SectionCF, "compression_per_level",
		"kNoCompression:kSnappyCompression:kSnappyCompression:kSnappyCompression:kSnappyCompression:kSnappyCompression:kZSTD")
	expectOption(t, f, options.SectionCF, "write_buffer_size", "268435456")
	expectOption(t, f, options.SectionDB, "max_total_wal_size", "4294967296")
	expectOption(t, f, options.SectionDB, "dump_malloc_stats", "true")
	expectOption(t, f, options.SectionTablePrefix+"BlockBasedTable", "filter_policy", "bloomfilter:10:false")
	if err := db.Put([]byte("a"), []byte("b"), nil); err != nil {
		t.Fatal(err)
	}
	s, ok := db.Property(StatisticsProperty)
	if !ok || !strings.Contains(s, "rocksdb.block.cache.miss COUNT") {
		t.Fatalf("statistics %v: %.200q", ok, s)
	}
}

func TestOptionsFileAddsFilterWhenMissing(t *testing.T) {
	o := options.Default()
	o.OptionsFile = filepath.Join("..", "..", "options", "testdata", "OPTIONS-dbbench-default")
	o.BloomBits = 12
	dir := t.TempDir()
	db := openWith(t, o)(dir)
	db.Close()
	expectOption(t, parsedOptions(t, dir), options.SectionTablePrefix+"BlockBasedTable", "filter_policy", "bloomfilter:12:false")
}

func TestOpenErrors(t *testing.T) {
	cases := []struct {
		mod  func(o *options.Options)
		want string
	}{
		{func(o *options.Options) { o.Memtablerep = "cspp" }, "Could not load MemTableRepFactory: cspp"},
		{func(o *options.Options) { o.Memtablerep = "cuckoo" }, "cuckoo hash memtable is not supported anymore"},
		{func(o *options.Options) { o.Memtablerep = "" }, "Missing configurable object: memtable_factory"},
		{func(o *options.Options) { o.Memtablerep = "prefix_hash" }, "prefix_size should be non-zero"},
		{func(o *options.Options) { o.Memtablerep = "vector" }, "Memtable doesn't concurrent writes"},
		{func(o *options.Options) { o.CompressionType = "brotli" }, "unknown compression type"},
		{func(o *options.Options) { o.CacheType = "clock_cache" }, "Old clock cache implementation has been removed."},
		{func(o *options.Options) { o.CacheType = "arc" }, "Cache type not supported."},
		{func(o *options.Options) { o.MaxBytesForLevelMultiplierAdditional = []int{1, 2} }, "Insufficient number of fanouts specified 2"},
		{func(o *options.Options) { o.OptionsFile = "/nonexistent/OPTIONS" }, "options file /nonexistent/OPTIONS"},
	}
	for _, c := range cases {
		o := options.Default()
		c.mod(o)
		db, err := Opener{}.Open(t.TempDir(), o, nil)
		if err == nil {
			db.Close()
			t.Errorf("want error %q, got none", c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %q, want %q", err, c.want)
		}
	}
}

func TestMemtableReps(t *testing.T) {
	for _, rep := range []string{"vector", "prefix_hash", "hash_linkedlist", "SKIP_LIST", "skip_list:4"} {
		// The hash reps put a bucket array of 8 MiB into the first memtable:
		// a smaller write buffer trips an assertion in Debian's build.
		o := options.Default()
		o.Memtablerep = rep
		o.AllowConcurrentMemtableWrite = rep == "SKIP_LIST" || rep == "skip_list:4"
		o.PrefixSize = 4
		dir := t.TempDir()
		db := openWith(t, o)(dir)
		for i := 0; i < 100; i++ {
			k := []byte(fmt.Sprintf("key%05d", i))
			if err := db.Put(k, k, nil); err != nil {
				t.Fatal(err)
			}
		}
		found, err := db.Get([]byte("key00042"), func(v []byte) {
			if string(v) != "key00042" {
				t.Errorf("%s: value %q", rep, v)
			}
		})
		if err != nil || !found {
			t.Errorf("%s: found %v err %v", rep, found, err)
		}
		db.Close()
	}
}

func TestAdminOperations(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.Statistics = true
	db := openWith(t, o)(dir)
	defer db.Close()
	val := bytes.Repeat([]byte("v"), 100)
	for i := 0; i < 20000; i++ {
		if err := db.Put([]byte(fmt.Sprintf("k%08d", i)), val, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(nil, nil, 3); err != nil {
		t.Fatal(err)
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact([]byte("k"), []byte("l"), 99); err == nil {
		t.Error("Compact to level 99 of 7 succeeded")
	}
	ls, ok := db.Property("rocksdb.levelstats")
	if !ok || !strings.Contains(ls, "Level Files Size(MB)") {
		t.Fatalf("levelstats %v %q", ok, ls)
	}
	// All data must have moved to level 3 (change_level with target 3).
	n, _ := db.Property("rocksdb.num-files-at-level3")
	if n == "0" || n == "" {
		t.Errorf("no files at level 3 after Compact(target 3): %q\n%s", n, ls)
	}
	for _, name := range []string{"rocksdb.stats", "rocksdb.sstables", "rocksdb.num-immutable-mem-table",
		"rocksdb.cur-size-active-mem-table", "rocksdb.estimate-pending-compaction-bytes"} {
		if _, ok := db.Property(name); !ok {
			t.Errorf("property %s not supported", name)
		}
	}
	if _, ok := db.Property("rocksdb.no-such-property"); ok {
		t.Error("unknown property reported as supported")
	}
	if err := db.ResetStats(); err != nil {
		t.Fatal(err)
	}
	st, _ := db.Property("rocksdb.stats")
	if !strings.Contains(st, "Cumulative writes: 0 writes") {
		t.Errorf("stats not reset:\n%s", st)
	}
}

func TestDestroyMissingDir(t *testing.T) {
	if err := (Opener{}).Destroy(filepath.Join(t.TempDir(), "never-created"), options.Default()); err != nil {
		t.Fatalf("Destroy of a missing DB: %v", err)
	}
}

func TestDestroy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	wal := filepath.Join(t.TempDir(), "wal")
	o := testOptions()
	o.WALDir = wal
	db := openWith(t, o)(dir)
	db.Put([]byte("a"), []byte("b"), nil)
	db.Close()
	if err := (Opener{}).Destroy(dir, o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "CURRENT")); !os.IsNotExist(err) {
		t.Fatalf("CURRENT still there: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(wal, "*.log")); len(m) > 0 {
		t.Fatalf("WAL files left: %v", m)
	}
}

// TestMultiGet reads through both of RocksDB's MultiGet interfaces: the
// one taking a vector of keys (db_bench's default) and the batched one
// (--multiread_batched).
func TestMultiGet(t *testing.T) {
	for _, batched := range []bool{false, true} {
		o := testOptions()
		o.Read.MultireadBatched = batched
		t.Run(fmt.Sprintf("batched=%v", batched), func(t *testing.T) { testMultiGet(t, o) })
	}
}

func testMultiGet(t *testing.T, o *options.Options) {
	db := openWith(t, o)(t.TempDir())
	defer db.Close()
	for i := 0; i < 200; i += 2 {
		k := []byte(fmt.Sprintf("k%03d", i))
		db.Put(k, append([]byte("v-"), k...), nil)
	}
	db.Flush()
	mg := db.(engine.Runner)
	keys := make([][]byte, 100) // more than one C-side chunk of 64
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("k%03d", i))
	}
	found := make([]bool, len(keys))
	seen := 0
	err := mg.MultiGet(keys, found, func(i int, v []byte) {
		seen++
		if string(v) != "v-"+string(keys[i]) {
			t.Errorf("key %s value %q", keys[i], v)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range found {
		if f != (i%2 == 0) {
			t.Errorf("found[%d] = %v", i, f)
		}
	}
	if seen != 50 {
		t.Errorf("callback called %d times", seen)
	}
	if err := mg.MultiGet(keys, found[:3], func(int, []byte) {}); err == nil {
		t.Error("short found slice accepted")
	}
}

func TestIteratorBounds(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		db.Put([]byte(k), []byte("v"+k), nil)
	}
	lo, hi := []byte("b"), []byte("d")
	it, err := db.NewIter(&engine.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		t.Fatal(err)
	}
	lo[0], hi[0] = 'z', 'z' // the engine must have copied the bounds
	var got []string
	for ok := it.First(); ok; ok = it.Next() {
		v, _ := it.Value()
		got = append(got, string(it.Key())+"="+string(v))
	}
	if strings.Join(got, ",") != "b=vb,c=vc" {
		t.Fatalf("bounded scan %v", got)
	}
	if !it.SeekLE([]byte("zz")) || string(it.Key()) != "c" {
		t.Fatalf("SeekLE past upper bound: %q", it.Key())
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestWarnings(t *testing.T) {
	o := testOptions()
	o.CacheType = "fast_lru_cache"
	o.Extra["not_a_rocksdb_option"] = "1"
	o.Extra["max_sequential_skip_in_iterations"] = "16"
	var warn bytes.Buffer
	dir := t.TempDir()
	db, err := Opener{}.Open(dir, o, &warn)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	want := "WARNING: engine rocksdb uses lru_cache for cache_type fast_lru_cache\nWARNING: engine rocksdb ignores option not_a_rocksdb_option\n"
	if warn.String() != want {
		t.Fatalf("warnings %q, want %q", warn.String(), want)
	}
	expectOption(t, parsedOptions(t, dir), options.SectionCF, "max_sequential_skip_in_iterations", "16")
}

func TestUseAfterClose(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir())
	db.Close()
	if err := db.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := db.Put([]byte("a"), []byte("b"), nil); err != errClosed {
		t.Fatalf("Put after Close: %v", err)
	}
	if _, err := db.Get([]byte("a"), func([]byte) {}); err != errClosed {
		t.Fatalf("Get after Close: %v", err)
	}
	if _, err := db.NewIter(nil); err != errClosed {
		t.Fatalf("NewIter after Close: %v", err)
	}
}
