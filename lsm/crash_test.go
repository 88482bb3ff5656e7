package lsm

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

const crashChildEnv = "LSM_CRASH_CHILD_DIR"

func crashKey(i int) string   { return fmt.Sprintf("key%08d", i) }
func crashValue(i int) string { return fmt.Sprintf("value-%d-%0100d", i, i) }

// crashChild writes keys from start on, printing the index of each
// acknowledged write, until killed: synchronous writes, or with mmapWAL
// unsynced writes through the mapped WAL (--mmap_write), which must survive
// the process's death as well.
func crashChild(dir string, start int, mmapWAL bool) {
	o := testOptions()
	o.WriteBufferSize = 32 << 10
	o.MmapWrite = mmapWAL
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
		crashChild(dir, start, os.Getenv(crashChildEnv+"_MMAP") == "1")
		return
	}
	if testing.Short() {
		t.Skip("crash test runs subprocesses")
	}
	t.Run("sync", func(t *testing.T) { crashRounds(t, false) })
	t.Run("mmap_write", func(t *testing.T) { crashRounds(t, true) })
}

func crashRounds(t *testing.T, mmapWAL bool) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	next := 0
	for round := 0; round < 5; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashRecovery$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, fmt.Sprintf("%s_START=%d", crashChildEnv, next),
			fmt.Sprintf("%s_MMAP=%d", crashChildEnv, boolInt(mmapWAL)))
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
		db, err := Open(dir, testOptions(), Config{})
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		for i := 0; i <= acked; i++ {
			v, ok := getString(t, db, crashKey(i))
			if !ok || v != crashValue(i) {
				t.Fatalf("round %d: acknowledged key %d lost (found %v)", round, i, ok)
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
