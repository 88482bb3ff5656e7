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
