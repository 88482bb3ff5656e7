package lsm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/godbbench/godbbench/internal/directio"
	"github.com/godbbench/godbbench/internal/ratelimit"
	"github.com/godbbench/godbbench/options"
)

// directDirs are a disk directory and, where it exists, a tmpfs one,
// those of them whose file system takes O_DIRECT.
func directDirs(t *testing.T) []string {
	all := []string{t.TempDir()}
	if shm, err := os.MkdirTemp("/dev/shm", "lsm-direct"); err == nil {
		t.Cleanup(func() { os.RemoveAll(shm) })
		all = append(all, shm)
	}
	var d []string
	for _, dir := range all {
		f, err := directio.Create(filepath.Join(dir, "probe"))
		if err != nil {
			t.Logf("%s: no O_DIRECT here (%v)", dir, err)
			continue
		}
		f.Close()
		d = append(d, dir)
	}
	return d
}

// checkAllKeys reads back what fillAndFlush wrote in round.
func checkAllKeys(t *testing.T, db *DB, n, round int) {
	t.Helper()
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("key%06d", i)
		if v, ok := getString(t, db, k); !ok || v != fmt.Sprintf("value%d-%d", round, i) {
			t.Fatalf("Get(%s) = %q, %v", k, v, ok)
		}
	}
}

func TestDirectReads(t *testing.T) {
	for _, dir := range directDirs(t) {
		o := testOptions()
		o.UseDirectReads = true
		db := mustOpen(t, dir, o)
		fillAndFlush(t, db, 2000, 0)
		fillAndFlush(t, db, 2000, 1)
		if err := db.Compact(nil, nil, -1); err != nil {
			t.Fatal(err)
		}
		checkAllKeys(t, db, 2000, 1)
		tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
		if len(tables) == 0 {
			t.Fatal("no tables")
		}
		f, _, direct, err := db.openTableForRead(tables[0])
		if err != nil {
			t.Fatal(err)
		}
		ok, err := directio.IsDirect(f)
		f.Close()
		if !direct || err != nil || !ok {
			t.Fatalf("%s: a table opened for reading has O_DIRECT %v (%v), direct %v", dir, ok, err, direct)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDirectWrites(t *testing.T) {
	for _, dir := range directDirs(t) {
		o := testOptions()
		o.UseDirectIOForFlushAndCompaction = true
		o.RateLimiterBytesPerSec = 1 << 40
		o.DisableAutoCompactions = true
		db := mustOpen(t, dir, o)
		fillAndFlush(t, db, 3000, 0)
		fillAndFlush(t, db, 3000, 1)
		if err := db.Compact(nil, nil, -1); err != nil {
			t.Fatal(err)
		}
		checkAllKeys(t, db, 3000, 1)
		// The rate limiter saw exactly the tables' bytes, not the padding.
		if got, want := db.RateLimiter().TotalBytesThrough(ratelimit.Low), sstBytes(t, dir); got != want {
			t.Fatalf("%s: the compaction charged %d bytes, its tables hold %d", dir, got, want)
		}
		w, err := db.createOutput(filepath.Join(dir, "out"), ratelimit.Low)
		if err != nil {
			t.Fatal(err)
		}
		out := w.(*outputFile)
		if ok, err := directio.IsDirect(out.os); err != nil || !ok {
			t.Fatalf("%s: an output has O_DIRECT %v (%v)", dir, ok, err)
		}
		w.Close()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		// Reopening checks every table's size and footer (opencheck.go).
		db = mustOpen(t, dir, o)
		checkAllKeys(t, db, 3000, 1)
		db.Close()
	}
}

func TestDirectIOUnsupportedFailsOpen(t *testing.T) {
	defer func(f func(string) (*os.File, error)) { openDirect = f }(openDirect)
	openDirect = func(string) (*os.File, error) { return nil, syscall.EINVAL }
	existing := t.TempDir()
	mustOpen(t, existing, testOptions()).Close()
	for _, set := range []func(o *options.Options){
		func(o *options.Options) { o.UseDirectReads = true },
		func(o *options.Options) { o.UseDirectIOForFlushAndCompaction = true },
		func(o *options.Options) { o.UseDirectReads, o.ReadOnly = true, true },
	} {
		o := testOptions()
		set(o)
		dir := t.TempDir()
		if o.ReadOnly {
			dir = existing
		}
		db, err := Open(dir, o, Config{})
		if err == nil {
			db.Close()
			t.Fatal("open succeeded on a file system without O_DIRECT")
		}
		if want := "Invalid argument: Direct I/O is not supported by the specified DB."; err.Error() != want {
			t.Fatalf("error %q, want %q", err, want)
		}
	}
}

func TestMmapReadsWithDirectReadsRefused(t *testing.T) {
	o := testOptions()
	o.UseDirectReads = true
	o.MmapRead = true
	db, err := Open(t.TempDir(), o, Config{})
	if err == nil {
		db.Close()
		t.Fatal("open succeeded with mmap_read and use_direct_reads")
	}
	if !strings.HasPrefix(err.Error(), "Not implemented: If memory mapped reads (allow_mmap_reads) are enabled then direct I/O reads (use_direct_reads) must be disabled.") {
		t.Fatalf("error %q", err)
	}
}
