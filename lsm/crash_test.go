package lsm

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const crashChildEnv = "LSM_CRASH_CHILD_DIR"

func crashKey(i int) string   { return fmt.Sprintf("key%08d", i) }
func crashValue(i int) string { return fmt.Sprintf("value-%d-%0100d", i, i) }

// crashPad is the big mode's padding value of write i: 24 KiB, so that a
// round's WAL spans several of the mapped WAL's extents.
func crashPad(i int) string {
	return strings.Repeat(strconv.Itoa(i)+"/", 24<<10/(len(strconv.Itoa(i))+1))
}

// crashChild writes keys from start on, printing the index of each
// acknowledged write, until killed: synchronous writes, or with mmapWAL
// unsynced writes through the mapped WAL (--mmap_write), which must survive
// the process's death as well. In the big mode every write also puts a
// 24 KiB value under pad<i>, into one 64 MiB memtable, so that the WAL
// grows through extents the writer fills and unmaps. With zstdWAL the
// WALs are compressed (--wal_compression=zstd).
func crashChild(dir string, start int, mmapWAL, big, zstdWAL bool) {
	o := testOptions()
	o.WriteBufferSize = 32 << 10
	if big {
		o.WriteBufferSize = 64 << 20
	}
	o.MmapWrite = mmapWAL
	if zstdWAL {
		o.Extra = map[string]string{walCompressionKey: "kZSTD"}
	}
	db, err := Open(dir, o, Config{})
	if err != nil {
		fmt.Println("open error:", err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	b := NewBatch()
	for i := start; ; i++ {
		b.Reset()
		b.Put([]byte(crashKey(i)), []byte(crashValue(i)))
		if i%7 == 0 {
			b.Delete([]byte(crashKey(i - 3)))
			b.Put([]byte(crashKey(i-3)), []byte(crashValue(i-3)))
		}
		if big {
			b.Put([]byte("pad"+crashKey(i)), []byte(crashPad(i)))
		}
		if err := db.Write(b, WriteOptions{Sync: !mmapWAL}); err != nil {
			fmt.Println("write error:", err)
			os.Exit(2)
		}
		fmt.Fprintln(out, i)
		out.Flush()
	}
}

// TestCrashRecovery kills a writing child process five times and checks
// that every acknowledged write is there after each reopen: synced writes,
// and unsynced writes through the mapped WAL.
func TestCrashRecovery(t *testing.T) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		start, _ := strconv.Atoi(os.Getenv(crashChildEnv + "_START"))
		crashChild(dir, start, os.Getenv(crashChildEnv+"_MMAP") == "1", os.Getenv(crashChildEnv+"_BIG") == "1", os.Getenv(crashChildEnv+"_ZSTD") == "1")
		return
	}
	if testing.Short() {
		t.Skip("crash test runs subprocesses")
	}
	t.Run("sync", func(t *testing.T) { crashRounds(t, false, false, false) })
	t.Run("mmap_write", func(t *testing.T) { crashRounds(t, true, false, false) })
	t.Run("mmap_write_big", func(t *testing.T) { crashRounds(t, true, true, false) })
	t.Run("sync_zstd", func(t *testing.T) { crashRounds(t, false, false, true) })
	t.Run("mmap_write_zstd", func(t *testing.T) { crashRounds(t, true, false, true) })
}

func crashRounds(t *testing.T, mmapWAL, big, zstdWAL bool) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	next := 0
	for round := 0; round < 5; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashRecovery$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, fmt.Sprintf("%s_START=%d", crashChildEnv, next),
			fmt.Sprintf("%s_MMAP=%d", crashChildEnv, boolInt(mmapWAL)), fmt.Sprintf("%s_BIG=%d", crashChildEnv, boolInt(big)),
			fmt.Sprintf("%s_ZSTD=%d", crashChildEnv, boolInt(zstdWAL)))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		acked := next - 1
		stopAfter := 50 + rng.Intn(400)
		if big {
			stopAfter = 200 + rng.Intn(300) // 4.7 MiB or more: past the first extent
		}
		for n := 0; n < stopAfter && sc.Scan(); n++ {
			i, err := strconv.Atoi(sc.Text())
			if err != nil {
				t.Fatalf("child: %s", sc.Text())
			}
			acked = i
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if acked < next {
			t.Fatalf("round %d: child acknowledged nothing", round)
		}
		checkNewestWALCompressed(t, dir, zstdWAL)
		db, err := Open(dir, testOptions(), Config{})
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		for i := 0; i <= acked; i++ {
			v, ok := getString(t, db, crashKey(i))
			if !ok || v != crashValue(i) {
				t.Fatalf("round %d: acknowledged key %d lost (found %v)", round, i, ok)
			}
			if big {
				if v, ok := getString(t, db, "pad"+crashKey(i)); !ok || v != crashPad(i) {
					t.Fatalf("round %d: acknowledged padding %d lost (found %v)", round, i, ok)
				}
			}
		}
		// Writes after the last acknowledgement may or may not be there, but
		// must be intact.
		for i := acked + 1; i < acked+20; i++ {
			if v, ok := getString(t, db, crashKey(i)); ok && v != crashValue(i) {
				t.Fatalf("round %d: key %d has a wrong value", round, i)
			}
		}
		it, err := db.NewIter(nil)
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		for ok := it.First(); ok; ok = it.Next() {
			count++
		}
		if err := it.Close(); err != nil {
			t.Fatalf("round %d: scan: %v", round, err)
		}
		if big {
			count /= 2 // a key and its padding per write
		}
		if count < acked+1 {
			t.Fatalf("round %d: scan saw %d keys, want at least %d", round, count, acked+1)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		next = acked + 1
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
