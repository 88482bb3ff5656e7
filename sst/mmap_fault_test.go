//go:build unix

package sst

import (
	"bytes"
	"errors"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/mmapfault"
)

// TestMmapShrunkFileIsError truncates a mapped table after Open, with
// SetPanicOnFault off: the reads of lost pages inside sst are guarded, so
// a scan stops with an ErrCorruption error naming the table after correct
// entries only, and Get returns the error; bytes an Iter handed out before
// are copies, readable after the file shrank. (The page holding the new
// end of the file reads as zeros past it, so a cut in mid-file shows as a
// checksum mismatch before the first fault.)
func TestMmapShrunkFileIsError(t *testing.T) {
	dir := t.TempDir()
	es := sequentialEntries(5000)
	for _, comp := range []Compression{CompressionNone, CompressionSnappy} {
		for _, keep := range []float64{0, 0.5} {
			path, _ := writeTable(t, dir, es, WriterOptions{Compression: comp})
			r := openTable(t, path, ReaderOptions{Mmap: true, Cache: NewCache(64<<10, 0), Name: path})
			it := r.NewIter()
			if !it.First() {
				t.Fatal(it.Error())
			}
			key, v := it.Key(), []byte(nil)
			if v, _ = it.Value(); len(v) == 0 {
				t.Fatal("no value")
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, int64(float64(st.Size())*keep)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(key, es[0].key) || !bytes.Equal(v, es[0].value) {
				t.Fatalf("%v: bytes handed out before the truncation changed", comp)
			}
			it.Close()
			it = r.NewIter()
			n := 0
			for ok := it.First(); ok; ok = it.Next() {
				v, err := it.Value()
				if err != nil {
					break
				}
				if n >= len(es) || !bytes.Equal(it.Key(), es[n].key) || !bytes.Equal(v, es[n].value) {
					t.Fatalf("%v keep %v: entry %d is %q=%q", comp, keep, n, it.Key(), v)
				}
				n++
			}
			err = it.Error()
			if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), path) ||
				keep == 0 && !strings.Contains(err.Error(), "memory-mapped") {
				t.Fatalf("%v keep %v: scan of a truncated mapped table: %v after %d entries", comp, keep, err, n)
			}
			it.Close()
			_, err = r.Get(es[len(es)-1].key, base.MaxSeq, func([]byte, base.Kind, uint64) {})
			if !errors.Is(err, ErrCorruption) {
				t.Fatalf("%v keep %v: Get from a truncated mapped table: %v", comp, keep, err)
			}
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestOpenReleasesMappingOnFailure requires Open to unmap and forget a
// mapped file it refuses: for a damaged footer, and for a file that shrinks
// between the size check and the reads of the mapping (Open's error then
// comes from the fault guard).
func TestOpenReleasesMappingOnFailure(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeTable(t, dir, sequentialEntries(1000), WriterOptions{})
	before := mmapfault.Registered()
	open := func() (*Reader, error) {
		f, size := openFile(t, path)
		prev := debug.SetPanicOnFault(true)
		defer debug.SetPanicOnFault(prev)
		return Open(f, size, ReaderOptions{Mmap: true, Name: path})
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1 // the footer's magic
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := open(); !errors.Is(err, ErrCorruption) {
		t.Fatalf("Open with a damaged footer: %v", err)
	}
	if n := mmapfault.Registered(); n != before {
		t.Fatalf("%d mappings registered after a failed Open, %d before", n, before)
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	testHookSizeChecked = func(f *os.File) {
		if err := os.Truncate(f.Name(), 0); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { testHookSizeChecked = func(*os.File) {} }()
	_, err = open()
	if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "memory-mapped") {
		t.Fatalf("Open of a file that shrank after the size check: %v", err)
	}
	if n := mmapfault.Registered(); n != before {
		t.Fatalf("%d mappings registered after a faulted Open, %d before", n, before)
	}
}
