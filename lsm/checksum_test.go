package lsm

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/sst"
)

// flushedTables writes keys, flushes, closes the DB in dir and returns
// the properties of its tables.
func flushedTables(t *testing.T, dir string, o *options.Options, keys int) []sst.Properties {
	t.Helper()
	db := mustOpen(t, dir, o)
	for i := range keys {
		put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%d", i))
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no tables (%v)", err)
	}
	var props []sst.Properties
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
		props = append(props, *r.Properties())
		r.Close()
	}
	return props
}

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
		for _, p := range flushedTables(t, dir, o, 100) {
			if p.Checksum != want {
				t.Errorf("checksum_type %d: a table is checked with %v, want %v", n, p.Checksum, want)
			}
		}
		db := mustOpen(t, dir, o)
		if v, ok := getString(t, db, "key000042"); !ok || v != "value42" {
			t.Errorf("checksum_type %d: key000042 = %q, %v after reopening", n, v, ok)
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

// TestIndexCompressionFollowsOption flushes the same keys with snappy
// tables with --enable_index_compression at its default (true) and false:
// the compressed indexes must be smaller.
func TestIndexCompressionFollowsOption(t *testing.T) {
	indexBytes := func(extra map[string]string) uint64 {
		o := testOptions()
		o.CompressionType = "snappy"
		o.WriteBufferSize = 4 << 20
		o.Extra = extra
		var n uint64
		for _, p := range flushedTables(t, t.TempDir(), o, 20000) {
			n += p.IndexSize
		}
		return n
	}
	on := indexBytes(nil)
	off := indexBytes(map[string]string{indexCompressionKey: "false"})
	if on >= off {
		t.Errorf("index bytes: %d with enable_index_compression, %d without", on, off)
	}
	o := testOptions()
	o.Extra = map[string]string{indexCompressionKey: "maybe"}
	if db, err := Open(t.TempDir(), o, Config{Version: "test"}); err == nil {
		db.Close()
		t.Error("enable_index_compression=maybe opened")
	}
}
