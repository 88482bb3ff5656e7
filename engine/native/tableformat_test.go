package native

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/engine/enginetest"
	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/rtable"
)

// rtableOptions select rtable tables below L0.
func rtableOptions(o *options.Options) { o.TableFormat = options.TableFormatRTable }

// TestRTableConformance runs the conformance, concurrency and merge suites
// with the levels below L0 written as rtable tables.
func TestRTableConformance(t *testing.T) {
	open := openWith(t, rtableOptions)
	enginetest.RunConformance(t, open)
	enginetest.RunConcurrency(t, open)
	o := options.Default()
	o.WriteBufferSize = 256 << 10
	rtableOptions(o)
	enginetest.RunMerge(t, enginetest.MergeOpenWith(t, Opener{}, o), true)
}

// TestRTableWritten checks that --table_format=rtable reaches the files: a
// compacted DB's tables end with rtable's magic number, and with the
// default compression their recurring values are coded against a
// dictionary.
func TestRTableWritten(t *testing.T) {
	dir := t.TempDir()
	db := openWith(t, rtableOptions)(dir)
	for i := range 1000 {
		if err := db.Put(fmt.Appendf(nil, "key%06d", i), fmt.Appendf(nil, "recurring value %04d", i%37), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	tables, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil || len(tables) == 0 {
		t.Fatalf("no tables (%v)", err)
	}
	for _, name := range tables {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !rtable.HasMagic(b) {
			t.Fatalf("%s is not an rtable table", filepath.Base(name))
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := rtable.Open(f, int64(len(b)), rtable.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c := r.Properties().ValueCodec; c != rtable.ValueDict {
			t.Errorf("%s: value codec %d, want %d (dictionary)", filepath.Base(name), c, rtable.ValueDict)
		}
		r.Close()
	}
}
