// Package dbdestroytest holds what the engines' Destroy tests share: a
// directory tree snapshot, the locked-DB refusal check and a child process
// that holds a DB open.
package dbdestroytest

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tree describes every entry under root without following links: "dir",
// "link:<target>" or "file:<contents>", by path relative to root. An entry
// that vanishes while it is read is left out.
func Tree(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p != root {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return ignoreVanished(err)
			}
			out[rel] = "link:" + target
		case d.IsDir():
			out[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return ignoreVanished(err)
			}
			out[rel] = "file:" + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func ignoreVanished(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// WriteFile writes contents to path, creating its directories.
func WriteFile(t testing.TB, path, contents string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
}

// CheckRefused fails t unless err is RocksDB's lock error for dir/LOCK and
// the tree under dir equals before.
func CheckRefused(t testing.TB, dir string, err error, before map[string]string) {
	t.Helper()
	want := "IO error: While lock file: " + filepath.Join(dir, "LOCK") + ": Resource temporarily unavailable"
	if err == nil || err.Error() != want {
		t.Fatalf("Destroy of a locked DB: %v, want %q", err, want)
	}
	if after := Tree(t, dir); !maps.Equal(before, after) {
		t.Fatalf("a refused Destroy changed the directory:\n%v\n->\n%v", before, after)
	}
}

// HoldInChild re-runs the test binary's test named testName with env set to
// dir; the child is expected to call ServeHold. It returns once the child
// holds the DB; release closes the child's stdin and waits for it to exit.
func HoldInChild(t testing.TB, testName, env, dir string) (release func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+testName+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+dir)
	// The child holds the DB until its stdin, the read end of this pipe,
	// reaches EOF.
	hold, stdin, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = hold
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	hold.Close()
	if err != nil {
		stdin.Close()
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if line == "ready" {
			return func() {
				t.Helper()
				stdin.Close()
				for sc.Scan() {
				}
				if err := cmd.Wait(); err != nil {
					t.Fatalf("child: %v", err)
				}
			}
		}
		if strings.HasPrefix(line, "error") {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child: %s", line)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	t.Fatal("child never opened the DB")
	return nil
}

// ServeHold is the child side of HoldInChild: it opens the DB, says
// "ready" on stdout, holds the DB until stdin reaches EOF, then closes it.
func ServeHold(open func() (io.Closer, error)) {
	db, err := open()
	if err != nil {
		os.Stdout.WriteString("error " + err.Error() + "\n")
		return
	}
	os.Stdout.WriteString("ready\n")
	io.Copy(io.Discard, os.Stdin)
	db.Close()
}

// CheckWALDirIsAFile makes a regular file beside dir, calls destroy with it
// as the WAL dir and fails t unless destroy returns RocksDB's
// not-a-directory error and nothing under dir's parent changed.
func CheckWALDirIsAFile(t testing.TB, dir string, destroy func(walDir string) error) {
	t.Helper()
	root := filepath.Dir(dir)
	walFile := filepath.Join(root, "walfile")
	WriteFile(t, walFile, "a regular file")
	before := Tree(t, root)
	want := "IO error: `" + walFile + "' exists but is not a directory"
	if err := destroy(walFile); err == nil || err.Error() != want {
		t.Fatalf("Destroy with a file as WAL dir: %v, want %q", err, want)
	}
	if after := Tree(t, root); !maps.Equal(before, after) {
		t.Fatalf("a refused Destroy changed files:\n%v\n->\n%v", before, after)
	}
}

// StableTree is Tree once it has stayed the same for 300 ms (at most 10 s),
// for a DB whose engine still deletes obsolete files in the background
// after Open and compactions return.
func StableTree(t testing.TB, root string) map[string]string {
	t.Helper()
	prev := Tree(t, root)
	stable := time.Now()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		cur := Tree(t, root)
		if !maps.Equal(prev, cur) {
			prev, stable = cur, time.Now()
		} else if time.Since(stable) >= 300*time.Millisecond {
			break
		}
	}
	return prev
}
