package lsm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/ratelimit"
	"github.com/godbbench/godbbench/internal/statistics"
)

// sstBytes is the total size of the tables in dir.
func sstBytes(t *testing.T, dir string) int64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".sst") {
			fi, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			n += fi.Size()
		}
	}
	return n
}

// fillAndFlush writes n keys and flushes them to L0.
func fillAndFlush(t *testing.T, db *DB, n, round int) {
	t.Helper()
	for i := 0; i < n; i++ {
		put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%d-%d", round, i))
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
}

func TestRateLimiterChargesFlushAndCompactionWrites(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	// So high that nothing waits: the test counts bytes, not time.
	o.RateLimiterBytesPerSec = 1 << 40
	o.DisableAutoCompactions = true
	db := mustOpen(t, dir, o)
	defer db.Close()
	l := db.RateLimiter()
	if l == nil {
		t.Fatal("no rate limiter with rate_limiter_bytes_per_sec set")
	}
	fillAndFlush(t, db, 2000, 0)
	fillAndFlush(t, db, 2000, 1)
	flushed := sstBytes(t, dir)
	if got := l.TotalBytesThrough(ratelimit.High); got != flushed {
		t.Fatalf("flushes charged %d bytes at High, their tables hold %d", got, flushed)
	}
	if got := l.TotalBytesThrough(ratelimit.Low); got != 0 {
		t.Fatalf("%d bytes charged at Low before any compaction", got)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if got, want := l.TotalBytesThrough(ratelimit.Low), sstBytes(t, dir); got != want {
		t.Fatalf("the compaction charged %d bytes at Low, its tables hold %d", got, want)
	}
}

func TestRateLimitBgReadsLeavesWritesFree(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.RateLimiterBytesPerSec = 1 << 40
	o.RateLimitBgReads = true
	db := mustOpen(t, dir, o)
	defer db.Close()
	fillAndFlush(t, db, 2000, 0)
	if got := db.RateLimiter().TotalBytesThrough(ratelimit.High); got != 0 {
		t.Fatalf("with rate_limit_bg_reads a flush charged %d bytes of writes", got)
	}
}

func TestRateLimitBgReadsChargesCompactionAndUserReads(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.RateLimiterBytesPerSec = 1 << 40
	o.RateLimitBgReads = true
	o.Read.RateLimitUserOps = true
	o.DisableAutoCompactions = true
	db := mustOpen(t, dir, o)
	defer db.Close()
	fillAndFlush(t, db, 3000, 0)
	fillAndFlush(t, db, 3000, 1)
	inputs := sstBytes(t, dir)
	l := db.RateLimiter()
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	// The compactions (the manual compaction may run more than one, the
	// later reading the earlier's outputs) read their inputs' data blocks,
	// which are most of the tables' bytes.
	m, err := db.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	var read uint64
	for _, lm := range m.Levels[1:] {
		read += lm.Compactions.ReadBytes + lm.Compactions.ReadOutputLevelBytes
	}
	if got := l.TotalBytesThrough(ratelimit.Low); got < inputs/2 || got > int64(read) {
		t.Fatalf("the compactions charged %d bytes of reads, their inputs hold %d (the first ones %d)", got, read, inputs)
	}
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		it.Value()
		n++
	}
	if err := it.Close(); err != nil || n != 3000 {
		t.Fatalf("scan saw %d keys, err %v", n, err)
	}
	if got := l.TotalBytesThrough(ratelimit.User); got == 0 || got > sstBytes(t, dir) {
		t.Fatalf("a scan with rate_limit_user_ops charged %d bytes, the table holds %d", got, sstBytes(t, dir))
	}
}

func TestReadaheadSettings(t *testing.T) {
	o := testOptions()
	o.CompactionReadaheadSize = 2 << 20
	o.Read.ReadaheadSize = 1 << 20
	io := newFileIO(o, nil)
	if got := io.reads(true).readahead; got != 2<<20 {
		t.Errorf("compaction inputs read ahead %d, want compaction_readahead_size", got)
	}
	if got := io.reads(false).readahead; got != 1<<20 {
		t.Errorf("iterators read ahead %d, want readahead_size", got)
	}
	if io.reads(true).charge != nil || io.reads(false).charge != nil {
		t.Error("reads charged without a rate limiter")
	}
}

func TestNoRateLimiterByDefault(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	if db.RateLimiter() != nil {
		t.Fatal("a rate limiter without rate_limiter_bytes_per_sec")
	}
}

// TestBytesPerSyncHandsRangesToWriteback follows the range an output file
// has handed to writeback: everything up to 1 MiB before the end, 4 KiB
// aligned, once bytes_per_sync has gathered.
func TestBytesPerSyncHandsRangesToWriteback(t *testing.T) {
	osf, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	f := &outputFile{WritableFile: osf, io: &fileIO{}, os: osf, ranges: rangeSyncer{f: osf, every: 512 << 10}}
	defer f.Close()
	chunk := make([]byte, 100<<10)
	for _, step := range []struct {
		writes int
		synced uint64
	}{
		{10, 0},                  // 1000 KiB: all of it within the last MiB
		{5, 0},                   // 1500 KiB: 476 KiB past the held-back MiB
		{1, 576 << 10},           // 1600 KiB: 576 KiB gathered, aligned
		{5, 576 << 10},           // 2100 KiB: 500 KiB more, under 512
		{1, (2200 - 1024) << 10}, // 2200 KiB
	} {
		for i := 0; i < step.writes; i++ {
			if _, err := f.Write(chunk); err != nil {
				t.Fatal(err)
			}
		}
		if f.ranges.synced != step.synced {
			t.Fatalf("after %d KiB, %d bytes handed to writeback, want %d", f.ranges.size>>10, f.ranges.synced, step.synced)
		}
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
}

func TestOutputFileWithoutOptionsIsThePlainFile(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.UseFsync = true
	db := mustOpen(t, dir, o)
	defer db.Close()
	f, err := db.createOutput(filepath.Join(dir, "plain"), ratelimit.High)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := f.(*os.File); !ok {
		t.Fatalf("with only use_fsync set the output is a %T, want the *os.File", f)
	}
}

// TestRateLimiterDrainsCounted: a flush of several bursts at a slow rate
// waits for refills, and each wait counts in
// rocksdb.number.rate_limiter.drains.
func TestRateLimiterDrainsCounted(t *testing.T) {
	o := testOptions()
	// 10 KB bursts every 100 ms: a 50 KB flush asks five times.
	o.RateLimiterBytesPerSec = 100 << 10
	o.RateLimiterRefillPeriodUs = 100000
	o.DisableAutoCompactions = true
	stats := statistics.New(statistics.ExceptTimers)
	db, err := Open(t.TempDir(), o, Config{Statistics: stats})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fillAndFlush(t, db, 3000, 0)
	if got := db.RateLimiter().TotalBytesThrough(ratelimit.High); got < 3*db.RateLimiter().SingleBurstBytes() {
		t.Fatalf("the flush wrote %d bytes, the test needs several bursts", got)
	}
	if stats.Ticker(statistics.RateLimiterDrains) == 0 {
		t.Fatal("no drain counted")
	}
}
