//go:build linux

package lsm

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// calledFromWrite reports whether the calling goroutine is inside
// mmapLog.Write.
func calledFromWrite() bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, ".(*mmapLog).Write") {
			return true
		}
		if !more {
			return false
		}
	}
}

// newTestMmapLog opens a mapped WAL in a new directory, or skips the test
// where the file system cannot preallocate.
func newTestMmapLog(t *testing.T, extent int64) (*mmapLog, string) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "000001.log")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	w, err := newMmapLog(f, extent)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := w.(*mmapLog)
	if !ok {
		f.Close()
		t.Skipf("%s cannot preallocate: the WAL writes with write(2) there", filepath.Dir(name))
	}
	return m, name
}

// TestMmapLogWriterMakesNoExtent writes five extents' worth and checks
// that no extent is allocated, mapped or unmapped from within Write (the
// extent maker does it), that every extent was mapped and every filled one
// unmapped by Close, and that the file holds the bytes written.
func TestMmapLogWriterMakesNoExtent(t *testing.T) {
	var mu sync.Mutex
	maps, unmaps, inWrite := 0, 0, 0
	defer func(m func(*os.File, int64, int64) ([]byte, error), u func([]byte) error) {
		mapExtentFn, unmapFn = m, u
	}(mapExtentFn, unmapFn)
	mapExtentFn = func(f *os.File, off, extent int64) ([]byte, error) {
		mu.Lock()
		maps++
		if calledFromWrite() {
			inWrite++
		}
		mu.Unlock()
		return mapExtent(f, off, extent)
	}
	unmapFn = func(b []byte) error {
		mu.Lock()
		unmaps++
		if calledFromWrite() {
			inWrite++
		}
		mu.Unlock()
		return syscall.Munmap(b)
	}
	const extent = 64 << 10
	m, name := newTestMmapLog(t, extent)
	var want []byte
	for i := 0; len(want) < 5*extent+100; i++ {
		p := bytes.Repeat([]byte{byte(i%250 + 1)}, 3000+i%7)
		if _, err := m.Write(p); err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if inWrite != 0 {
		t.Errorf("%d extents mapped or unmapped inside Write, want none", inWrite)
	}
	// Six extents written into (the sixth partly), a seventh made ahead;
	// every mapping is gone after Close, five of them unmapped by unmapFn
	// (the filled ones) and the seventh too.
	if maps != 7 || unmaps != 6 {
		t.Errorf("%d extents mapped and %d unmapped through the maker, want 7 and 6", maps, unmaps)
	}
	if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("closed file: %d bytes (%v), want the %d written", len(got), err, len(want))
	}
}

// TestMmapLogExtentMadeAheadFails makes the third extent fail to allocate
// and checks that the write that needs it returns that error with nothing
// of it written, that the log stays failed, and that Close still leaves
// the file holding exactly the bytes written before.
func TestMmapLogExtentMadeAheadFails(t *testing.T) {
	errNoSpace := errors.New("no space left (test)")
	const extent = 64 << 10
	defer func(f func(*os.File, int64, int64) ([]byte, error)) { mapExtentFn = f }(mapExtentFn)
	mapExtentFn = func(f *os.File, off, ext int64) ([]byte, error) {
		if off >= 2*extent {
			return nil, errNoSpace
		}
		return mapExtent(f, off, ext)
	}
	m, name := newTestMmapLog(t, extent)
	var want []byte
	p := bytes.Repeat([]byte{7}, 10000)
	var err error
	for err == nil {
		if _, err = m.Write(p); err == nil {
			want = append(want, p...)
		}
	}
	if !errors.Is(err, errNoSpace) {
		t.Fatalf("Write failed with %v, want the extent's error", err)
	}
	if len(want) >= 2*extent || len(want)+len(p) < 2*extent {
		t.Fatalf("the failing write came after %d bytes; want it to be the one reaching the third extent", len(want))
	}
	if _, err := m.Write([]byte("x")); err == nil {
		t.Fatal("a Write after the failure succeeded")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("closed file: %d bytes (%v), want the %d written", len(got), err, len(want))
	}
}
