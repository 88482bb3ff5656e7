//go:build unix

package mmapfault

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

var errTestCorrupt = errors.New("test: corruption")

// mapTruncated maps a file of pages pages, then truncates the file to
// keep bytes, leaving the mapping's pages past keep with no file behind
// them.
func mapTruncated(t *testing.T, pages int, keep int64) (path string, data []byte) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "000007.sst")
	size := pages * os.Getpagesize()
	content := make([]byte, size)
	for i := range content {
		content[i] = byte(i%251) + 1
	}
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(data) })
	if err := os.Truncate(path, keep); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// guardedSum adds up data[from:] under the guard, as a reader of a
// mapping does.
func guardedSum(data []byte, from int) (sum int, err error) {
	defer Catch(debug.SetPanicOnFault(true), &err)
	for _, b := range data[from:] {
		sum += int(b)
	}
	return sum, nil
}

// TestFaultInRegisteredMappingIsError reads a mapping whose file was
// truncated after it was mapped: the guarded read returns an error
// wrapping the region's sentinel that names the file and the offset of
// the first lost page, the process lives, and the goroutine's
// SetPanicOnFault setting is restored.
func TestFaultInRegisteredMappingIsError(t *testing.T) {
	page := os.Getpagesize()
	path, data := mapTruncated(t, 4, int64(page))
	before := Registered()
	r := Register(data, path, errTestCorrupt)
	defer r.Unregister()
	if Registered() != before+1 {
		t.Fatalf("%d regions after Register, %d before", Registered(), before)
	}
	if sum, err := guardedSum(data[:page], 0); err != nil || sum == 0 {
		t.Fatalf("read of the page the file kept: %d, %v", sum, err)
	}
	_, err := guardedSum(data, 0)
	if !errors.Is(err, errTestCorrupt) || !strings.Contains(err.Error(), path) ||
		!strings.Contains(err.Error(), "memory-mapped read failed") {
		t.Fatalf("read past the new end of the file: %v", err)
	}
	if want := "at offset " + strconv.Itoa(page) + ":"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not name the offset of the first lost page (%q)", err, want)
	}
	if debug.SetPanicOnFault(false) {
		t.Fatal("the guard left SetPanicOnFault on")
	}
}

// TestUnregisteredFaultGoesOn requires a fault outside every registered
// region, and any panic that is no fault, to pass through Catch unchanged
// (here to an outer recover, so the test process lives).
func TestUnregisteredFaultGoesOn(t *testing.T) {
	page := os.Getpagesize()
	path, data := mapTruncated(t, 2, 0)
	r := Register(data, path, errTestCorrupt)
	r.Unregister()
	repanicked := func(f func() error) (p any) {
		defer func() { p = recover() }()
		prev := debug.SetPanicOnFault(true)
		defer debug.SetPanicOnFault(prev)
		if err := f(); err != nil {
			t.Fatalf("Catch claimed a panic it does not own: %v", err)
		}
		return nil
	}
	p := repanicked(func() error { _, err := guardedSum(data, page); return err })
	if _, ok := p.(faultAddr); !ok {
		t.Fatalf("a fault in an unregistered mapping: recovered %v, want the runtime's fault", p)
	}
	p = repanicked(func() (err error) {
		defer Catch(debug.SetPanicOnFault(true), &err)
		panic("not a fault")
	})
	if p != "not a fault" {
		t.Fatalf("a plain panic: recovered %v", p)
	}
	if Error(errors.New("other")) != nil || Error("text") != nil || Error(nil) != nil {
		t.Fatal("Error claims a panic that is no fault")
	}
}

// TestRegisterEmpty: an empty mapping registers nothing, and its nil
// Region unregisters without effect.
func TestRegisterEmpty(t *testing.T) {
	before := Registered()
	r := Register(nil, "empty", errTestCorrupt)
	if r != nil || Registered() != before {
		t.Fatalf("Register of an empty mapping: %v, %d regions (%d before)", r, Registered(), before)
	}
	r.Unregister()
}
