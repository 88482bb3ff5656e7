package dbbench_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/dbbench/profiles"
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// TestLockedDBRefusesFill: a fill run on a DB another holder has open ends
// with db_bench's words and exit 1, and the DB keeps its data.
func TestLockedDBRefusesFill(t *testing.T) {
	for _, eng := range []string{"native", "pebble"} {
		t.Run(eng, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			args := []string{"--engine=" + eng, "--db=" + dir, "--num=100", "--seed=1"}
			if code, _, errs := runMain(t, append(args, "--benchmarks=fillseq")...); code != 0 {
				t.Fatalf("fillseq: exit %d: %s", code, errs)
			}
			opener, err := engine.Lookup(eng)
			if err != nil {
				t.Fatal(err)
			}
			db, err := opener.Open(dir, options.Default(), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Put([]byte("held"), []byte("1"), nil); err != nil {
				t.Fatal(err)
			}
			code, out, errs := runMain(t, append(args, "--benchmarks=fillrandom")...)
			want := "open error: IO error: While lock file: " + filepath.Join(dir, "LOCK") + ": Resource temporarily unavailable\n"
			if code != 1 || errs != want {
				t.Errorf("fill on a held DB: exit %d, stderr %q, want 1 and %q", code, errs, want)
			}
			if !strings.HasSuffix(out, "Initializing RocksDB Options from command-line flags\nIntegrated BlobDB: blob cache disabled\n") {
				t.Errorf("stdout %q lacks the Open lines", out)
			}
			found, err := db.Get([]byte("held"), func([]byte) {})
			if err != nil || !found {
				t.Errorf("key lost under a refused fill: %v %v", found, err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFillKeepsUnrelatedFiles: a fresh-DB run deletes only the engine's
// files in --db and --wal_dir.
func TestFillKeepsUnrelatedFiles(t *testing.T) {
	for _, eng := range []string{"native", "pebble"} {
		t.Run(eng, func(t *testing.T) {
			root := t.TempDir()
			dir, walDir := filepath.Join(root, "db"), filepath.Join(root, "wal")
			mine := []string{filepath.Join(dir, "notes.txt"), filepath.Join(dir, "sub", "keep"), filepath.Join(walDir, "notes.txt")}
			for _, p := range mine {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"--engine=" + eng, "--db=" + dir, "--wal_dir=" + walDir, "--num=100", "--benchmarks=fillseq,fillrandom"}
			for range 2 {
				if code, _, errs := runMain(t, args...); code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
			}
			for _, p := range mine {
				if b, err := os.ReadFile(p); err != nil || string(b) != "mine" {
					t.Errorf("%s: %q %v", p, b, err)
				}
			}
		})
	}
}

// TestWALDirIsAFile: --wal_dir naming a regular file fails as db_bench's
// Open does, and the file is left as it was.
func TestWALDirIsAFile(t *testing.T) {
	for _, eng := range []string{"native", "pebble"} {
		t.Run(eng, func(t *testing.T) {
			root := t.TempDir()
			walFile := filepath.Join(root, "walfile")
			if err := os.WriteFile(walFile, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errs := runMain(t, "--engine="+eng, "--db="+filepath.Join(root, "db"), "--wal_dir="+walFile, "--num=10", "--benchmarks=fillseq")
			want := "open error: IO error: `" + walFile + "' exists but is not a directory\n"
			if code != 1 || errs != want {
				t.Errorf("exit %d, stderr %q, want 1 and %q", code, errs, want)
			}
			if b, err := os.ReadFile(walFile); err != nil || string(b) != "mine" {
				t.Errorf("WAL dir file changed: %q %v", b, err)
			}
		})
	}
}

// TestProfilesKeepsUserFiles: the profiles workload deletes its stores with
// the engine's Destroy, so a file of the user's in a directory named like a
// store survives, and the stores are gone after the run.
func TestProfilesKeepsUserFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	stores := profiles.StoreDirs(dir)
	mine := filepath.Join(stores[0], "mine.txt")
	if err := os.MkdirAll(stores[0], 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runMain(t, "--engine=native", "--db="+dir, "--benchmarks=profiles", "--num=200", "--seed=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "mine" {
		t.Fatalf("user file in %s: %q %v", stores[0], b, err)
	}
	for _, s := range stores[1:] {
		if _, err := os.Lstat(s); !os.IsNotExist(err) {
			t.Errorf("store %s left after the run: %v", s, err)
		}
	}
}

// refusingDestroy is the native engine whose Destroy, while the test arms
// it, refuses from its third call on (the first is at start-up, the second
// before the first fresh-DB benchmark), as when another process opens the
// DB between two fresh-DB benchmarks. The tests that run every registered
// engine leave it out (it is the native engine when unarmed).
type refusingDestroy struct {
	engine.Opener
	armed *atomic.Bool
	calls *atomic.Int32
}

const refusal = "IO error: While lock file: LOCK: Resource temporarily unavailable"

func (e refusingDestroy) Destroy(dir string, o *options.Options) error {
	if e.armed.Load() && e.calls.Add(1) > 2 {
		return errors.New(refusal)
	}
	return e.Opener.Destroy(dir, o)
}

const refusingDestroyName = "native-refusing-destroy"

var destroyRefuser = refusingDestroy{armed: new(atomic.Bool), calls: new(atomic.Int32)}

func init() {
	native, err := engine.Lookup("native")
	if err != nil {
		panic(err)
	}
	destroyRefuser.Opener = native
	engine.Register(refusingDestroyName, destroyRefuser)
}

// TestFreshDBDestroyRefused: a fresh-DB benchmark whose Destroy is refused
// ends the run there with the refusal as its Open error, exit 1.
func TestFreshDBDestroyRefused(t *testing.T) {
	destroyRefuser.calls.Store(0)
	destroyRefuser.armed.Store(true)
	defer destroyRefuser.armed.Store(false)
	dir := filepath.Join(t.TempDir(), "db")
	code, out, errs := runMain(t, "--engine="+refusingDestroyName, "--db="+dir, "--num=100",
		"--benchmarks=fillseq,fillrandom,readseq", "--progress_reports=false")
	if code != 1 || !strings.HasSuffix(errs, "open error: "+refusal+"\n") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "fillseq      :") || strings.Contains(out, "fillrandom   :") || strings.Contains(out, "readseq") {
		t.Fatalf("stdout should end after fillseq:\n%s", out)
	}
}

// TestProfilesKeepsExistingDB: with --use_existing_db=1 (or --readonly=1,
// which sets it) the profiles workload, which builds its stores after
// destroying --db, is skipped as a fresh-DB benchmark is, and the DB keeps
// its data.
func TestProfilesKeepsExistingDB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	base := []string{"--engine=native", "--db=" + dir, "--num=100", "--seed=1"}
	if code, _, errs := runMain(t, append(base, "--benchmarks=fillseq")...); code != 0 {
		t.Fatalf("fillseq: exit %d: %s", code, errs)
	}
	for _, flag := range []string{"--use_existing_db=1", "--readonly=1"} {
		code, out, errs := runMain(t, append(base, flag, "--benchmarks=profiles,readseq")...)
		if code != 0 || !strings.Contains(out, "profiles     : skipped (--use_existing_db is true)\n") {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", flag, code, out, errs)
		}
		opener, err := engine.Lookup("native")
		if err != nil {
			t.Fatal(err)
		}
		o := options.Default()
		o.ReadOnly = true
		db, err := opener.Open(dir, o, io.Discard)
		if err != nil {
			t.Fatalf("%s: reopen: %v", flag, err)
		}
		n := 0
		it, err := db.NewIter(nil)
		if err != nil {
			t.Fatal(err)
		}
		for ok := it.First(); ok; ok = it.Next() {
			n++
		}
		if err := it.Error(); err != nil {
			t.Fatal(err)
		}
		it.Close()
		db.Close()
		if n != 100 {
			t.Fatalf("%s: %d keys left, want 100", flag, n)
		}
	}
}
