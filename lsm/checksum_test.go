package lsm

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/sst"
)

// TestChecksumTypeReachesTables flushes a table under each --checksum_type
// and requires its footer to name that type, and the DB to read it back.
func TestChecksumTypeReachesTables(t *testing.T) {
	for n := range 5 {
		want, err := sst.ChecksumTypeFromRocksDB(n)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		o := testOptions()
		o.ChecksumType = n
		db := mustOpen(t, dir, o)
		for i := range 100 {
			put(t, db, fmt.Sprintf("key%04d", i), fmt.Sprintf("value%d", i))
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		paths, err := filepath.Glob(filepath.Join(dir, "*.sst"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("checksum_type %d: no tables (%v)", n, err)
		}
		for _, p := range paths {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			st, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			r, err := sst.Open(f, st.Size(), sst.ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Properties().Checksum; got != want {
				t.Errorf("checksum_type %d: %s is checked with %v, want %v", n, filepath.Base(p), got, want)
			}
			r.Close()
		}
		db = mustOpen(t, dir, o)
		if v, ok := getString(t, db, "key0042"); !ok || v != "value42" {
			t.Errorf("checksum_type %d: key0042 = %q, %v after reopening", n, v, ok)
		}
		db.Close()
	}
	o := testOptions()
	o.ChecksumType = 5
	if db, err := Open(t.TempDir(), o, Config{Version: "test"}); err == nil {
		db.Close()
		t.Error("checksum_type 5 opened")
	}
}
