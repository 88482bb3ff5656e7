//go:build rocksdb

package rocksdb

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// TestReadOnlyOpen: with options.ReadOnly the database opens read-only, reads
// see the data, every write fails with RocksDB's NotSupported words
// (engine.ErrReadOnly's text), and a directory without a database fails to
// open without a file being written.
func TestReadOnlyOpen(t *testing.T) {
	dir := t.TempDir()
	db := openWith(t, testOptions())(dir)
	if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	o := testOptions()
	o.ReadOnly = true
	ro, err := Opener{}.Open(dir, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	var got string
	if ok, err := ro.Get([]byte("k"), func(v []byte) { got = string(v) }); !ok || err != nil || got != "v" {
		t.Fatalf("Get: %v %v %q", ok, err, got)
	}
	want := engine.ErrReadOnly.Error()
	if err := ro.Put([]byte("k2"), []byte("v"), nil); err == nil || err.Error() != want {
		t.Errorf("Put: %v, want %q", err, want)
	}
	if err := ro.Delete([]byte("k"), nil); err == nil || err.Error() != want {
		t.Errorf("Delete: %v, want %q", err, want)
	}
	b := ro.NewBatch()
	b.Put([]byte("k3"), []byte("v"))
	if err := ro.Apply(b, nil); err == nil || err.Error() != want {
		t.Errorf("Apply: %v, want %q", err, want)
	}
	b.Close()

	missing := filepath.Join(t.TempDir(), "missing")
	if db, err := (Opener{}).Open(missing, o, nil); err == nil {
		db.Close()
		t.Fatal("read-only open of a missing database succeeded")
	}
	if ents, _ := os.ReadDir(missing); len(ents) != 0 {
		t.Fatalf("read-only open of a missing database wrote %v", ents)
	}
}
