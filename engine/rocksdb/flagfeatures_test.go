//go:build rocksdb

package rocksdb

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// openFeatures opens a database in a new directory with o and returns it
// with the directory; the database is closed when the test ends.
func openFeatures(t *testing.T, o *options.Options) (*DB, string) {
	t.Helper()
	dir := t.TempDir()
	db, err := Opener{}.Open(dir, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db.(*DB), dir
}

// readLOG returns the info log's text.
func readLOG(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "LOG"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCachePoolsAndSecondaryCache: the pool ratios and the compressed
// secondary cache reach the block cache, whose options RocksDB prints in
// the LOG.
func TestCachePoolsAndSecondaryCache(t *testing.T) {
	o := testOptions()
	o.CacheHighPriPoolRatio = 0.25
	o.CacheLowPriPoolRatio = 0.5
	o.UseCompressedSecondaryCache = true
	o.CompressedSecondaryCacheSize = 3 << 20
	_, dir := openFeatures(t, o)
	log := readLOG(t, dir)
	for _, want := range []string{"high_pri_pool_ratio: 0.250", "low_pri_pool_ratio: 0.500", "secondary_cache:", "capacity : 3145728"} {
		if !strings.Contains(log, want) {
			t.Errorf("LOG lacks %q", want)
		}
	}
}

// TestPoolRatiosOverOneDropTheCache: db_bench runs without a block cache
// when the two pool ratios add up to more than 1, as NewLRUCache refuses
// them.
func TestPoolRatiosOverOneDropTheCache(t *testing.T) {
	o := testOptions()
	o.CacheHighPriPoolRatio = 0.75
	o.CacheLowPriPoolRatio = 0.5
	db, _ := openFeatures(t, o)
	if db.cfg.cache != nil {
		t.Error("a block cache was built from pool ratios adding up to 1.25")
	}
}

// TestSimCacheReports: --simcache_size wraps the block cache in a
// simulated one whose report counts the lookups of flushed data.
func TestSimCacheReports(t *testing.T) {
	o := testOptions()
	o.SimCacheSize = 1 << 20
	db, _ := openFeatures(t, o)
	if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := db.Get([]byte("k"), func([]byte) {}); err != nil {
			t.Fatal(err)
		}
	}
	report, ok := db.Property(SimCacheProperty)
	if !ok || !strings.Contains(report, "SimCache HITs:") || strings.Contains(report, "SimCache HITs:    0\n") {
		t.Errorf("simulated cache report (found %v):\n%s", ok, report)
	}
	o.SimCacheSize = -1
	plain, _ := openFeatures(t, o)
	if _, ok := plain.Property(SimCacheProperty); ok {
		t.Error("a report without --simcache_size")
	}
}

// TestCacheCharging: the --charge_* flags set the table's charging
// decisions, and --cost_write_buffer_to_cache charges memtables to the
// block cache, which then holds memory before any block is read.
func TestCacheCharging(t *testing.T) {
	o := testOptions()
	o.ChargeFilterConstruction = true
	o.ChargeFileMetadata = true
	o.CostWriteBufferToCache = true
	db, _ := openFeatures(t, o)
	if got, want := db.cfg.tableCharges(), 1<<1|1<<3; got != want {
		t.Errorf("charges %05b, want %05b", got, want)
	}
	value := make([]byte, 1000)
	for i := 0; i < 500; i++ {
		if err := db.Put([]byte("key"+strconv.Itoa(i)), value, nil); err != nil {
			t.Fatal(err)
		}
	}
	usage, _ := db.Property("rocksdb.block-cache-usage")
	if n, _ := strconv.Atoi(usage); n == 0 {
		t.Errorf("block cache usage %q after 500 KB of memtable writes", usage)
	}
}

// TestThreadPoolsSized: the pool flags size the environment's pools.
func TestThreadPoolsSized(t *testing.T) {
	o := testOptions()
	o.NumHighPriThreads = 3
	o.NumLowPriThreads = 5
	o.NumBottomPriThreads = 2
	db, _ := openFeatures(t, o)
	if h, l, b := db.cfg.threadPoolSizes(); h != 3 || l != 5 || b != 2 {
		t.Errorf("pools high %d low %d bottom %d, want 3 5 2", h, l, b)
	}
}

// TestWriteBatchProtection: writes carry per-key checksums of the given
// size, which RocksDB checks: 8 bytes work, 3 are refused.
func TestWriteBatchProtection(t *testing.T) {
	o := testOptions()
	o.WriteBatchProtectionBytesPerKey = 8
	db, _ := openFeatures(t, o)
	if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Errorf("8 bytes per key: %v", err)
	}
	o.WriteBatchProtectionBytesPerKey = 3
	bad, _ := openFeatures(t, o)
	err := bad.Put([]byte("k"), []byte("v"), nil)
	if err == nil || !strings.Contains(err.Error(), "must be zero or eight bytes/key") {
		t.Errorf("3 bytes per key: %v", err)
	}
}

// TestStderrInfoLogger: the info log goes to stderr, so no LOG file is
// written.
func TestStderrInfoLogger(t *testing.T) {
	o := testOptions()
	o.UseStderrInfoLogger = true
	_, dir := openFeatures(t, o)
	if _, err := os.Stat(filepath.Join(dir, "LOG")); !os.IsNotExist(err) {
		t.Errorf("LOG: %v, want none", err)
	}
}

// TestTableFormatsAndHooks: the plain and cuckoo tables, the hash index,
// the keep filter and the uint64 comparator show in the OPTIONS file;
// each refusal has db_bench's words.
func TestTableFormatsAndHooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(o *options.Options)
		want []string
	}{
		{"plain", func(o *options.Options) { o.UsePlainTable, o.MmapRead, o.PrefixSize, o.KeySize = true, true, 8, 12 },
			[]string{`[TableOptions/PlainTable "default"]`, "user_key_len=12"}},
		{"cuckoo", func(o *options.Options) { o.UseCuckooTable, o.MmapRead, o.CuckooHashRatio = true, true, 0.5 },
			[]string{`[TableOptions/CuckooTable "default"]`, "hash_table_ratio=0.500000"}},
		{"hash", func(o *options.Options) {
			o.Extra["block_based_table_factory.index_type"], o.PrefixSize = "kHashSearch", 8
		},
			[]string{"index_type=kHashSearch"}},
		{"keep", func(o *options.Options) { o.UseKeepFilter = true }, []string{"compaction_filter=KeepFilter"}},
		{"uint64", func(o *options.Options) { o.UseUint64Comparator, o.KeySize = true, 8 }, []string{"comparator=rocksdb.Uint64Comparator"}},
	} {
		o := testOptions()
		tc.set(o)
		_, dir := openFeatures(t, o)
		files, _ := filepath.Glob(filepath.Join(dir, "OPTIONS-*"))
		if len(files) == 0 {
			t.Fatalf("%s: no OPTIONS file", tc.name)
		}
		b, _ := os.ReadFile(files[len(files)-1])
		for _, w := range tc.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: OPTIONS file lacks %q", tc.name, w)
			}
		}
	}
	for _, tc := range []struct {
		set  func(o *options.Options)
		want string
	}{
		{func(o *options.Options) { o.UseCuckooTable = true }, "cuckoo table format requires mmap read to operate"},
		{func(o *options.Options) { o.UseCuckooTable, o.MmapRead, o.CuckooHashRatio = true, true, 1.5 }, "Invalid cuckoo_hash_ratio"},
		{func(o *options.Options) { o.UseUint64Comparator = true }, "Using Uint64 comparator but key size is not 8."},
		{func(o *options.Options) { o.Explicit["use_hash_search"] = true }, "prefix_size not assigned when enable use_hash_search "},
	} {
		o := testOptions()
		tc.set(o)
		_, err := Opener{}.Open(t.TempDir(), o, io.Discard)
		if err == nil || err.Error() != tc.want {
			t.Errorf("open error %v, want %q", err, tc.want)
		}
	}
}

// TestBlockCacheTrace: --block_cache_trace_file records the block cache
// accesses of the open database, in a file written by Close; the flag
// checks have db_bench's words.
func TestBlockCacheTrace(t *testing.T) {
	o := testOptions()
	o.BlockCacheTraceFile = filepath.Join(t.TempDir(), "bc.trace")
	db, _ := openFeatures(t, o)
	if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Get([]byte("k"), func([]byte) {}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(o.BlockCacheTraceFile)
	if err != nil || st.Size() < 100 {
		t.Errorf("trace file: %v, %d bytes", err, st.Size())
	}
	o.BlockCacheTraceSamplingFrequency = 0
	if _, err := (Opener{}).Open(t.TempDir(), o, io.Discard); err == nil ||
		err.Error() != "Block cache trace sampling frequency must be higher than 0." {
		t.Errorf("sampling frequency 0: %v", err)
	}
}

// TestSecondaryInstance: --use_secondary_db opens the database as a
// secondary of the one written here: it reads what the primary flushed,
// keeps its own files in --secondary_path, refuses writes, and reports its
// catch-ups.
func TestSecondaryInstance(t *testing.T) {
	o := testOptions()
	primary, dir := openFeatures(t, o)
	if err := primary.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	if err := primary.Flush(); err != nil {
		t.Fatal(err)
	}
	so := testOptions()
	so.UseSecondaryDB = true
	so.SecondaryPath = t.TempDir()
	so.SecondaryUpdateInterval = 0
	db, err := Opener{}.Open(dir, so, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got string
	if found, err := db.Get([]byte("k"), func(v []byte) { got = string(v) }); !found || err != nil || got != "v" {
		t.Errorf("secondary Get: found %v, %q, %v", found, got, err)
	}
	if err := db.Put([]byte("k2"), []byte("v"), nil); err == nil || !strings.Contains(err.Error(), "secondary mode") {
		t.Errorf("secondary Put: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(so.SecondaryPath, "OPTIONS-*")); len(files) == 0 {
		if _, err := os.Stat(filepath.Join(so.SecondaryPath, "LOG")); err != nil {
			t.Errorf("nothing of the secondary in %s: %v", so.SecondaryPath, err)
		}
	}
	if n, ok := db.Property(SecondaryUpdatesProperty); !ok || n != "0" {
		t.Errorf("catch-ups %q (%v), want 0 with no update interval", n, ok)
	}
	so.TransactionDB = true
	if _, err := (Opener{}).Open(dir, so, io.Discard); err == nil || err.Error() != "Cannot use use_secondary_db flag with transaction_db" {
		t.Errorf("secondary transaction DB: %v", err)
	}
}
