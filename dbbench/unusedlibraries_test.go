//go:build rocksdb && linux

package dbbench

import (
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// TestUnusedLibrariesReleased gives back librocksdb's pages as a native run
// does, wants some released (its static initializers left code resident),
// and then wants the rocksdb engine to work as before: released pages come
// back from the page cache when touched.
func TestUnusedLibrariesReleased(t *testing.T) {
	if got := releaseUnusedLibraries("rocksdb"); got.Mappings != 0 {
		t.Errorf("a rocksdb run released %+v", got)
	}
	got := releaseUnusedLibraries("native")
	if got.Mappings == 0 || got.Bytes == 0 {
		t.Fatalf("a native run released %+v, want librocksdb's resident code", got)
	}
	t.Logf("released %d mappings, %d KiB", got.Mappings, got.Bytes>>10)

	op, err := engine.Lookup("rocksdb")
	if err != nil {
		t.Fatal(err)
	}
	db, err := op.Open(filepath.Join(t.TempDir(), "db"), options.Default(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Put([]byte("key"), []byte("value"), &engine.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var value string
	if found, err := db.Get([]byte("key"), func(v []byte) { value = string(v) }); err != nil || !found || value != "value" {
		t.Errorf("Get after the release: %q, %v, %v", value, found, err)
	}
}
