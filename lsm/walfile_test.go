package lsm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/ratelimit"
)

// TestWALBytesPerSync writes 3 MB of WAL with wal_bytes_per_sync set:
// the WAL hands its bytes to writeback in steps, the last MiB held back,
// and everything is there after a reopen.
func TestWALBytesPerSync(t *testing.T) {
	for _, mmap := range []bool{false, true} {
		dir := t.TempDir()
		o := testOptions()
		o.WriteBufferSize = 64 << 20
		o.WALBytesPerSync = 256 << 10
		o.MmapWrite = mmap
		db := mustOpen(t, dir, o)
		value := strings.Repeat("v", 1000)
		for i := 0; i < 3000; i++ {
			put(t, db, fmt.Sprintf("key%06d", i), value)
		}
		db.mu.Lock()
		w, ok := db.mu.logFile.(*walFile)
		var size, synced uint64
		if ok {
			size, synced = w.ranges.size, w.ranges.synced
		}
		db.mu.Unlock()
		if !ok {
			t.Fatalf("mmap_write=%v: the WAL is a %T, not range-synced", mmap, db.mu.logFile)
		}
		if size < 3000*1000 || synced == 0 || size-synced < rangeSyncHoldBack || size-synced >= rangeSyncHoldBack+o.WALBytesPerSync+rangeSyncAlign {
			t.Fatalf("mmap_write=%v: %d WAL bytes written, %d handed to writeback", mmap, size, synced)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		db = mustOpen(t, dir, o)
		for _, i := range []int{0, 1500, 2999} {
			if v, ok := getString(t, db, fmt.Sprintf("key%06d", i)); !ok || v != value {
				t.Fatalf("key %d lost after reopen", i)
			}
		}
		db.Close()
	}
}

// TestRateLimitAutoWALFlush: with rate_limit_auto_wal_flush every WAL byte
// is charged at User priority; without it none is.
func TestRateLimitAutoWALFlush(t *testing.T) {
	for _, charge := range []bool{false, true} {
		o := testOptions()
		o.WriteBufferSize = 64 << 20
		o.RateLimiterBytesPerSec = 1 << 40
		o.Read.RateLimitAutoWALFlush = charge
		db := mustOpen(t, t.TempDir(), o)
		for i := 0; i < 500; i++ {
			put(t, db, fmt.Sprintf("key%06d", i), "value")
		}
		got := db.RateLimiter().TotalBytesThrough(ratelimit.User)
		db.mu.Lock()
		w, wrapped := db.mu.logFile.(*walFile)
		var size uint64
		if wrapped {
			size = w.ranges.size
		}
		db.mu.Unlock()
		if wrapped != charge || uint64(got) != size || (charge && size == 0) {
			t.Fatalf("rate_limit_auto_wal_flush=%v: WAL wrapped %v, %d bytes written, %d charged", charge, wrapped, size, got)
		}
		db.Close()
	}
}
