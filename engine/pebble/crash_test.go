package pebble

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// The crash loop: a child process (this test binary, re-run with
// crashChildEnv set) writes keys in order to a database and prints each
// index once its Put returned; the parent kills it with SIGKILL after a
// random time, at any point of a write, flush or compaction (memtables and
// tables are small, so both run all the time), or of the child's Open and
// WAL recovery. Then the parent opens the database and checks it:
//
//   - every key the child printed is there with its value: with sync on
//     because it was synced, with sync off because the engine acknowledges
//     an unsynced write only once its WAL record is in the OS (walsync.go),
//     and a process kill does not lose what the OS holds;
//   - the keys present are a prefix of the writes (nothing after a missing
//     key) and every value is right.
//
// The next child continues after the last key present. Set
// GODBBENCH_CRASH_CYCLES for a long run (e.g. 200); -short runs 3 cycles a
// mode, the default 10.

const (
	crashChildEnv = "GODBBENCH_PEBBLE_CRASH_CHILD" // "dir sync start"
	crashCycleEnv = "GODBBENCH_CRASH_CYCLES"
)

func crashOptions() *options.Options {
	o := testOptions()
	o.WriteBufferSize = 128 << 10
	o.Level0FileNumCompactionTrigger = 2
	return o
}

func crashValue(i int) []byte {
	return bytes.Repeat(fmt.Appendf(nil, "value-%09d|", i), 10)
}

// TestCrashChild is the child's body; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	spec := os.Getenv(crashChildEnv)
	if spec == "" {
		t.Skip("runs only as the crash loop's child")
	}
	var dir string
	var sync, start int
	if _, err := fmt.Sscan(spec, &dir, &sync, &start); err != nil {
		t.Fatal(err)
	}
	db, err := Opener{}.Open(dir, crashOptions(), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewWriter(os.Stdout)
	wo := &engine.WriteOptions{Sync: sync == 1}
	for i := start; ; i++ {
		if err := db.Put(fmt.Appendf(nil, "key%09d", i), crashValue(i), wo); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(out, "%d\n", i)
		out.Flush()
	}
}

func TestCrashLoop(t *testing.T) {
	if os.Getenv(crashChildEnv) != "" {
		t.Skip("in the child")
	}
	cycles := 10
	if testing.Short() {
		cycles = 3
	}
	if n, err := strconv.Atoi(os.Getenv(crashCycleEnv)); err == nil && n > 0 {
		cycles = n
	}
	for _, sync := range []int{1, 0} {
		t.Run(fmt.Sprintf("sync=%d", sync), func(t *testing.T) {
			dir := t.TempDir()
			rng := rand.New(rand.NewPCG(uint64(sync), 99))
			next, lostAcked := 0, 0
			for cycle := range cycles {
				acked := runCrashChild(t, dir, sync, next, time.Duration(20+rng.IntN(400))*time.Millisecond)
				present := checkCrashState(t, dir, next)
				if acked >= present {
					t.Errorf("cycle %d: keys %d..%d were acknowledged but are gone", cycle, present, acked)
					lostAcked += acked - present + 1
				}
				next = present
			}
			t.Logf("%d kill cycles, %d keys written, %d acknowledged writes lost", cycles, next, lostAcked)
		})
	}
}

// runCrashChild runs a child writing from key start and kills it after d.
// It returns the last index the child acknowledged, or start-1.
func runCrashChild(t *testing.T, dir string, sync, start int, d time.Duration) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d", crashChildEnv, dir, sync, start))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	last := make(chan int, 1)
	go func() {
		n := start - 1
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if i, err := strconv.Atoi(sc.Text()); err == nil {
				n = i
			}
		}
		last <- n
	}()
	time.Sleep(d)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	acked := <-last
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("child ended before the kill: %v\n%s", err, stderr.String())
	}
	return acked
}

// checkCrashState opens dir and returns the number of keys present, failing
// the test on a wrong value or a key present after a missing one. Keys
// below from must all be there (the parent checked them before).
func checkCrashState(t *testing.T, dir string, from int) int {
	t.Helper()
	db, err := Opener{}.Open(dir, crashOptions(), os.Stderr)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer db.Close()
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.Value()
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("key%09d", n); string(it.Key()) != want || !bytes.Equal(v, crashValue(n)) {
			t.Fatalf("key %d: got %q (value ok %v): the keys are not a prefix of the writes", n, it.Key(), bytes.Equal(v, crashValue(n)))
		}
		n++
	}
	if err := it.Error(); err != nil {
		t.Fatal(err)
	}
	if n < from {
		t.Fatalf("%d keys present, %d were there after the previous cycle", n, from)
	}
	return n
}
