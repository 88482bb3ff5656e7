package pebble

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

func TestRegistered(t *testing.T) {
	o, err := engine.Lookup("pebble")
	if err != nil {
		t.Fatal(err)
	}
	info := o.Info()
	if info.Name != "pebble" || info.Version == "" {
		t.Fatalf("Info = %+v", info)
	}
	// The value starts at column 12, like "RocksDB:    version 7.8.3".
	if want := "Pebble:     version " + info.Version; info.VersionLine != want {
		t.Fatalf("VersionLine = %q, want %q", info.VersionLine, want)
	}
	if strings.Index(info.VersionLine, "version") != strings.Index("RocksDB:    version 7.8.3", "version") {
		t.Fatalf("VersionLine %q is not aligned with db_bench's", info.VersionLine)
	}
}

func TestBuildConfigMapping(t *testing.T) {
	o := options.Default()
	o.WriteBufferSize = 32 << 20
	o.MaxWriteBufferNumber = 4
	o.Level0FileNumCompactionTrigger = 8
	o.Level0StopWritesTrigger = 40
	o.MaxBytesForLevelBase = 512 << 20
	o.MaxBytesForLevelMultiplier = 8
	o.TargetFileSizeBase = 16 << 20
	o.TargetFileSizeMultiplier = 2
	o.BlockSize = 8192
	o.BlockRestartInterval = 8
	o.BloomBits = 10
	o.MinLevelToCompress = 2
	o.CompressionType = "zstd"
	o.MaxBackgroundJobs = 8
	o.DisableAutoCompactions = true
	o.DisableWAL = true
	o.WALDir = "/tmp/wal"
	o.OpenFiles = 500
	o.BytesPerSync = 1 << 20
	var warn bytes.Buffer
	cfg, err := buildConfig(o, &warn, &logger{w: &warn})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.cache.Unref()
	p := cfg.opts
	checks := []struct {
		name      string
		got, want any
	}{
		{"FormatMajorVersion", p.FormatMajorVersion, pebble.FormatNewest},
		{"MemTableSize", p.MemTableSize, uint64(32 << 20)},
		{"MemTableStopWritesThreshold", p.MemTableStopWritesThreshold, 4},
		{"L0CompactionThreshold", p.L0CompactionThreshold, 8},
		{"L0StopWritesThreshold", p.L0StopWritesThreshold, 40},
		{"LBaseMaxBytes", p.LBaseMaxBytes, int64(512 << 20)},
		{"LevelMultiplier", p.Experimental.LevelMultiplier, 8},
		{"TargetFileSizes[0]", p.TargetFileSizes[0], int64(16 << 20)},
		{"TargetFileSizes[1]", p.TargetFileSizes[1], int64(16 << 20)},
		{"TargetFileSizes[2]", p.TargetFileSizes[2], int64(32 << 20)},
		{"TargetFileSizes[6]", p.TargetFileSizes[6], int64(512 << 20)},
		{"BlockSize", p.Levels[3].BlockSize, 8192},
		{"BlockRestartInterval", p.Levels[3].BlockRestartInterval, 8},
		{"FilterPolicy", p.Levels[6].FilterPolicy != nil, true},
		{"L0 compression", p.Levels[0].Compression(), sstable.NoCompression},
		{"L1 compression", p.Levels[1].Compression(), sstable.NoCompression},
		{"L2 compression", p.Levels[2].Compression(), sstable.ZstdCompression},
		{"concurrency", cfg.concurrency, 6}, // 8 jobs - max(1, 8/4) flushes
		{"DisableAutomaticCompactions", p.DisableAutomaticCompactions, true},
		{"DisableWAL", p.DisableWAL, true},
		{"WALDir", p.WALDir, "/tmp/wal"},
		{"MaxOpenFiles", p.MaxOpenFiles, 500},
		{"BytesPerSync", p.BytesPerSync, 1 << 20},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if lo, hi := p.CompactionConcurrencyRange(); lo != 6 || hi != 6 {
		t.Errorf("CompactionConcurrencyRange = %d, %d", lo, hi)
	}
	if warn.Len() != 0 {
		t.Errorf("unexpected warnings for options Pebble honours:\n%s", warn.String())
	}
}

func TestBuildConfigWarnings(t *testing.T) {
	o := options.Default()
	o.NumLevels = 5
	o.UseDirectReads = true
	o.CompressionType = "lz4"
	o.Level0SlowdownWritesTrigger = 10
	o.MaxBytesForLevelMultiplier = 7.5
	for _, n := range []string{"num_levels", "use_direct_reads", "compression_type",
		"level0_slowdown_writes_trigger", "max_bytes_for_level_multiplier", "write_buffer_size"} {
		o.Explicit[n] = true
	}
	var warn bytes.Buffer
	cfg, err := buildConfig(o, &warn, &logger{w: &warn})
	if err != nil {
		t.Fatal(err)
	}
	cfg.cache.Unref()
	got := warn.String()
	for _, want := range []string{
		"WARNING: engine pebble ignores option num_levels\n",
		"WARNING: engine pebble ignores option use_direct_reads\n",
		"WARNING: engine pebble ignores option level0_slowdown_writes_trigger\n",
		"WARNING: engine pebble ignores option max_bytes_for_level_multiplier\n",
		"WARNING: engine pebble has no lz4 compression; using MinLZ\n",
	} {
		if strings.Count(got, want) != 1 {
			t.Errorf("warnings lack exactly one %q; got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "write_buffer_size") {
		t.Errorf("write_buffer_size is honoured but was warned about:\n%s", got)
	}
	if cfg.opts.Experimental.LevelMultiplier != 0 {
		t.Errorf("a fractional multiplier was applied: %d", cfg.opts.Experimental.LevelMultiplier)
	}
}

func TestBuildConfigErrors(t *testing.T) {
	for _, size := range []int64{0, -1, 4 << 30} {
		o := options.Default()
		o.WriteBufferSize = size
		if _, err := buildConfig(o, &bytes.Buffer{}, &logger{}); err == nil {
			t.Errorf("write_buffer_size %d accepted", size)
		}
	}
}

func TestCompactionConcurrency(t *testing.T) {
	for _, c := range []struct{ jobs, compactions, flushes, want int }{
		{2, -1, -1, 1}, {4, -1, -1, 3}, {16, -1, -1, 12}, {2, 5, -1, 5}, {8, -1, 4, 4}, {1, -1, -1, 1},
	} {
		o := options.Default()
		o.MaxBackgroundJobs, o.MaxBackgroundCompactions, o.MaxBackgroundFlushes = c.jobs, c.compactions, c.flushes
		if got := compactionConcurrency(o); got != c.want {
			t.Errorf("jobs=%d compactions=%d flushes=%d: %d, want %d", c.jobs, c.compactions, c.flushes, got, c.want)
		}
	}
}

func TestEmptyKeyRefused(t *testing.T) {
	db := openTest(t, testOptions())(t.TempDir())
	defer db.Close()
	if err := db.Put(nil, []byte("v"), nil); err != errEmptyKey {
		t.Fatalf("Put(empty) = %v", err)
	}
	b := db.NewBatch()
	defer b.Close()
	b.Put([]byte("a"), nil)
	b.Delete([]byte{})
	if err := db.Apply(b, nil); err != errEmptyKey {
		t.Fatalf("Apply with an empty key = %v", err)
	}
	b.Reset()
	b.Put([]byte("a"), nil)
	if err := db.Apply(b, nil); err != nil {
		t.Fatalf("Apply after Reset = %v", err)
	}
}

func TestClosed(t *testing.T) {
	db := openTest(t, testOptions())(t.TempDir())
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Put([]byte("a"), nil, nil); err != errClosed {
		t.Errorf("Put after Close = %v", err)
	}
	if _, err := db.Get([]byte("a"), func([]byte) {}); err != errClosed {
		t.Errorf("Get after Close = %v", err)
	}
	if _, err := db.NewIter(nil); err != errClosed {
		t.Errorf("NewIter after Close = %v", err)
	}
	if err := db.Close(); err != errClosed {
		t.Errorf("second Close = %v", err)
	}
}

func TestDestroy(t *testing.T) {
	dir, wal := t.TempDir()+"/db", t.TempDir()+"/wal"
	o := testOptions()
	o.WALDir = wal
	db := openTest(t, o)(dir)
	if err := db.Put([]byte("a"), []byte("b"), nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := (Opener{}).Destroy(dir, o); err != nil {
		t.Fatal(err)
	}
	db = openTest(t, o)(dir)
	defer db.Close()
	if found, _ := db.Get([]byte("a"), func([]byte) {}); found {
		t.Fatal("key survived Destroy")
	}
}

// TestColumnarTables checks that new tables use Pebble's columnar blocks.
func TestColumnarTables(t *testing.T) {
	db := openTest(t, testOptions())(t.TempDir())
	defer db.Close()
	pdb := db.(*DB).db
	if v := pdb.FormatMajorVersion(); v != pebble.FormatNewest {
		t.Errorf("format major version %d, want FormatNewest (%d)", v, pebble.FormatNewest)
	}
	if f := pdb.TableFormat(); !f.BlockColumnar() {
		t.Errorf("table format %s is not columnar", f)
	}
}
