package pebble

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// dirState describes every file under dir: name, mode, size and a hash of
// its bytes.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		sum := ""
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		fmt.Fprintf(&b, "%s %v %d %s\n", path, info.Mode(), info.Size(), sum)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReadOnly opens a database holding flushed tables and WAL-only writes
// read-only: every key reads back, every write fails with RocksDB's words,
// and the directory is byte for byte as it was.
func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	db := openTest(t, o)(dir)
	for i := range 2000 {
		if err := db.Put(faultKey(i), faultValue(i), nil); err != nil {
			t.Fatal(err)
		}
		if i == 1500 {
			if err := db.(*DB).Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := dirState(t, dir)

	ro := testOptions()
	ro.ReadOnly = true
	rdb, err := Opener{}.Open(dir, ro, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		var got []byte
		found, err := rdb.Get(faultKey(i), func(v []byte) { got = bytes.Clone(v) })
		if err != nil || !found || !bytes.Equal(got, faultValue(i)) {
			t.Fatalf("key %d read-only: found %v, err %v", i, found, err)
		}
	}
	const want = "Not implemented: Not supported operation in read only mode."
	d := rdb.(*DB)
	b := d.NewBatch()
	b.Put([]byte("k"), []byte("v"))
	for name, err := range map[string]error{
		"Put":     d.Put([]byte("k"), []byte("v"), &engine.WriteOptions{Sync: true}),
		"Delete":  d.Delete(faultKey(1), nil),
		"Apply":   d.Apply(b, nil),
		"Flush":   d.Flush(),
		"Compact": d.Compact(nil, nil, -1),
	} {
		if err == nil || err.Error() != want {
			t.Errorf("%s on a read-only database = %v, want %q", name, err, want)
		}
	}
	b.Close()
	if err := rdb.Close(); err != nil {
		t.Fatal(err)
	}
	if after := dirState(t, dir); after != before {
		t.Errorf("read-only open changed the directory:\nbefore:\n%s\nafter:\n%s", before, after)
	}

	// Without a LOCK file (a copied database), RocksDB opens read-only
	// without creating one; so does this engine.
	if err := os.Remove(filepath.Join(dir, "LOCK")); err != nil {
		t.Fatal(err)
	}
	before = dirState(t, dir)
	rdb, err = Opener{}.Open(dir, ro, nil)
	if err != nil {
		t.Fatal(err)
	}
	if found, err := rdb.Get(faultKey(1999), func([]byte) {}); !found || err != nil {
		t.Errorf("Get without LOCK: found %v, err %v", found, err)
	}
	if err := rdb.Close(); err != nil {
		t.Fatal(err)
	}
	if after := dirState(t, dir); after != before {
		t.Errorf("read-only open without LOCK changed the directory:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestReadOnlyMissing checks that a read-only open of a missing directory,
// or of one holding no Pebble database, fails and creates nothing.
func TestReadOnlyMissing(t *testing.T) {
	parent := t.TempDir()
	empty := filepath.Join(parent, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(parent, "missing"), empty} {
		before := dirState(t, parent)
		o := testOptions()
		o.ReadOnly = true
		db, err := Opener{}.Open(dir, o, nil)
		if err == nil {
			db.Close()
			t.Fatalf("read-only open of %s succeeded", dir)
		}
		want := "IO error: No such file or directory: While opening a database read-only: " + dir + ": "
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %q, want prefix %q", err, want)
		}
		if after := dirState(t, parent); after != before {
			t.Errorf("read-only open of %s changed %s:\nbefore:\n%s\nafter:\n%s", dir, parent, before, after)
		}
	}
}
