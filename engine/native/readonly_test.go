package native

import (
	"io"
	"maps"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/dbdestroy/dbdestroytest"
	"github.com/godbbench/godbbench/options"
)

// readOnlyWords is RocksDB's status for a write to a read-only DB.
const readOnlyWords = "Not implemented: Not supported operation in read only mode."

// TestReadOnly: options.ReadOnly opens the native DB read-only: reads work,
// every write fails with RocksDB's words, and no file changes.
func TestReadOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db, err := Opener{}.Open(dir, options.Default(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := dbdestroytest.Tree(t, dir)
	o := options.Default()
	o.ReadOnly = true
	db, err = Opener{}.Open(dir, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if found, err := db.Get([]byte("k"), func(v []byte) { got = string(v) }); !found || err != nil || got != "v" {
		t.Fatalf("Get on a read-only DB: %q %v %v", got, found, err)
	}
	for name, err := range map[string]error{
		"Put":     db.Put([]byte("k2"), []byte("v"), nil),
		"Delete":  db.Delete([]byte("k"), nil),
		"Flush":   db.Flush(),
		"Compact": db.Compact(nil, nil, -1),
	} {
		if err == nil || err.Error() != readOnlyWords {
			t.Errorf("%s: %v, want %q", name, err, readOnlyWords)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if after := dbdestroytest.Tree(t, dir); !maps.Equal(before, after) {
		t.Fatal("a read-only open changed files")
	}
	missing := filepath.Join(t.TempDir(), "missing")
	if _, err := (Opener{}).Open(missing, o, io.Discard); err == nil {
		t.Fatal("read-only open of a missing DB succeeded")
	}
}
