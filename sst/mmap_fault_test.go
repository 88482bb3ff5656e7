//go:build unix

package sst

import (
	"errors"
	"os"
	"runtime/debug"
	"strings"
	"testing"
)

// readCatchingFaults runs fn with SetPanicOnFault on and returns
// FaultError's error for a fault it recovers.
func readCatchingFaults(t *testing.T, fn func()) (err error) {
	defer func() {
		debug.SetPanicOnFault(false)
		if p := recover(); p != nil {
			if err = FaultError(p); err == nil {
				t.Fatalf("panic that is no mapped-table fault: %v", p)
			}
		}
	}()
	debug.SetPanicOnFault(true)
	fn()
	return nil
}

// TestMmapShrunkFileFaultIsError truncates a mapped table after Open: reads
// of the lost pages fault, and FaultError names the table.
func TestMmapShrunkFileFaultIsError(t *testing.T) {
	dir := t.TempDir()
	es := sequentialEntries(5000)
	for _, comp := range []Compression{CompressionNone, CompressionSnappy} {
		path, _ := writeTable(t, dir, es, WriterOptions{Compression: comp})
		r := openTable(t, path, ReaderOptions{Mmap: true, Cache: NewCache(1<<20, 0), Name: path})
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		var n int
		err := readCatchingFaults(t, func() {
			it := r.NewIter()
			defer it.Close()
			for ok := it.First(); ok; ok = it.Next() {
				if _, err := it.Value(); err != nil {
					t.Fatal(err)
				}
				n++
			}
		})
		if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), path) {
			t.Fatalf("%v: scan of a truncated mapped table: %v after %d entries", comp, err, n)
		}
		err = readCatchingFaults(t, func() {
			r.Get(es[len(es)/2].key, 1<<56-1, func([]byte, Kind, uint64) {})
		})
		if !errors.Is(err, ErrCorruption) {
			t.Fatalf("%v: Get from a truncated mapped table: %v", comp, err)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if FaultError(errors.New("other")) != nil || FaultError("text") != nil {
		t.Fatal("FaultError claims a panic that is no fault")
	}
}

// mappedCount is the number of registered mappings.
func mappedCount() int {
	mappings.Lock()
	defer mappings.Unlock()
	return len(mappings.m)
}

// TestOpenReleasesMappingOnFailure requires Open to unmap and forget a
// mapped file it refuses: for a damaged footer, and for a file that shrinks
// between the size check and the reads of the mapping (Open's error then
// comes from FaultError).
func TestOpenReleasesMappingOnFailure(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeTable(t, dir, sequentialEntries(1000), WriterOptions{})
	before := mappedCount()
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
	if n := mappedCount(); n != before {
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
	if n := mappedCount(); n != before {
		t.Fatalf("%d mappings registered after a faulted Open, %d before", n, before)
	}
}
