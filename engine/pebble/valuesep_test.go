package pebble

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine/enginetest"
)

// TestConformanceValueSeparation runs the suite with values of 8 bytes and
// more separated into blob files.
func TestConformanceValueSeparation(t *testing.T) {
	o := testOptions()
	o.Extra = map[string]string{"enable_blob_files": "true", "min_blob_size": "8"}
	enginetest.RunConformance(t, openTest(t, o))
}

// TestValueSeparationWritesBlobFiles: a flush of large values leaves a blob
// file in the DB directory.
func TestValueSeparationWritesBlobFiles(t *testing.T) {
	o := testOptions()
	o.Extra = map[string]string{"enable_blob_files": "true", "min_blob_size": "100"}
	dir := t.TempDir()
	db, err := Opener{}.Open(dir, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range 100 {
		if err := db.Put([]byte{byte(i)}, []byte(strings.Repeat("v", 1000)), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	blobs, _ := filepath.Glob(filepath.Join(dir, "*.blob"))
	if len(blobs) == 0 {
		names, _ := os.ReadDir(dir)
		t.Fatalf("no blob file after a flush of 100 KB values: %v", names)
	}
}
