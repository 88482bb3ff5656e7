package pebble_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbbench/godbbench/dbbench"
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/engine/pebble"
	"github.com/godbbench/godbbench/options"
)

// smallTmpfs mounts a tmpfs of size bytes on a new directory and returns
// the directory and a function that resizes it. Without the privilege to
// mount, the test is skipped with a message saying what did not run.
func smallTmpfs(t *testing.T, size int) (string, func(int)) {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		t.Skipf("SKIPPED: cannot mount a tmpfs here (%v): the pebble engine's "+
			"full-disk test on a real file system did not run (the fault-injection "+
			"tests in failfs_test.go still cover it)", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	resize := func(size int) {
		t.Helper()
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, fmt.Sprintf("size=%d", size)); err != nil {
			t.Fatalf("grow the tmpfs: %v", err)
		}
	}
	return dir, resize
}

// TestDiskFullTmpfsEngine fills a database on an 8 MiB tmpfs with synced
// writes until the disk is full, closes it, grows the tmpfs and reopens:
// every acknowledged write is there.
func TestDiskFullTmpfsEngine(t *testing.T) {
	mnt, resize := smallTmpfs(t, 8<<20)
	dir := filepath.Join(mnt, "db")
	o := options.Default()
	o.WriteBufferSize = 1 << 20
	o.CompressionType = "none"
	db, err := pebble.Opener{}.Open(dir, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	value := bytes.Repeat([]byte("v"), 1000)
	acked := 0
	pebble.Within(t, "the fill", 60*time.Second, func() {
		for i := range 100000 {
			if err = db.Put(fmt.Appendf(nil, "key%08d", i), value, &engine.WriteOptions{Sync: true}); err != nil {
				return
			}
			acked++
		}
	})
	if err == nil || !strings.HasPrefix(err.Error(), "IO error: No space left on device: While ") {
		t.Fatalf("fill of an 8 MiB tmpfs ended with %v after %d writes", err, acked)
	}
	fillErr := err
	pebble.Within(t, "Close", 30*time.Second, func() { err = db.Close() })
	if err == nil {
		t.Error("Close after the disk filled returned nil")
	}
	resize(64 << 20)
	re, err := pebble.Opener{}.Open(dir, o, nil)
	if err != nil {
		t.Fatalf("reopen with space: %v", err)
	}
	defer re.Close()
	for i := range acked {
		found, err := re.Get(fmt.Appendf(nil, "key%08d", i), func([]byte) {})
		if err != nil || !found {
			t.Fatalf("acknowledged key %d of %d: found %v, err %v", i, acked, found, err)
		}
	}
	t.Logf("%d synced writes acknowledged before %q, all present after reopen", acked, fillErr)
}

// TestDiskFullTmpfsDriver runs db_bench's fillrandom on an 8 MiB tmpfs: it
// ends with C++ db_bench's "put error: IO error: No space left on
// device: ..." line and exit status 1, and once the tmpfs grows a readseq on
// the same directory succeeds.
func TestDiskFullTmpfsDriver(t *testing.T) {
	mnt, resize := smallTmpfs(t, 8<<20)
	db := filepath.Join(mnt, "db")
	var out, errw bytes.Buffer
	rc := -1
	pebble.Within(t, "fillrandom", 60*time.Second, func() {
		rc = dbbench.Main([]string{"--engine=pebble", "--db=" + db, "--benchmarks=fillrandom",
			"--num=100000", "--value_size=1000", "--compression_type=none"}, &out, &errw)
	})
	want := "put error: IO error: No space left on device: While appending to file: " + db + "/"
	if rc != 1 || !strings.Contains(errw.String(), want) {
		t.Fatalf("fillrandom on a full disk: exit %d, stderr lacks %q:\n%s", rc, want, tail(errw.String()))
	}
	resize(64 << 20)
	out.Reset()
	errw.Reset()
	pebble.Within(t, "readseq", 60*time.Second, func() {
		rc = dbbench.Main([]string{"--engine=pebble", "--db=" + db, "--use_existing_db=1",
			"--benchmarks=readseq"}, &out, &errw)
	})
	if rc != 0 || !strings.Contains(out.String(), "readseq") {
		t.Fatalf("readseq after growing the disk: exit %d\nstdout:\n%s\nstderr:\n%s", rc, tail(out.String()), tail(errw.String()))
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}
