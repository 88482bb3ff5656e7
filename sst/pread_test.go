package sst

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestFileReaderAt: reads as os.File.ReadAt does (whole ranges, io.EOF
// with the bytes before the end, a negative offset refused), and a read
// after close is os.ErrClosed, never a read of another file that took the
// descriptor.
func TestFileReaderAt(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789"), 1000)
	name := filepath.Join(dir, "t")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	fr := newFileReaderAt(f)
	buf := make([]byte, 4000)
	if n, err := fr.ReadAt(buf, 3000); err != nil || n != len(buf) || !bytes.Equal(buf, data[3000:7000]) {
		t.Fatalf("ReadAt(4000 at 3000) = %d, %v, or wrong bytes", n, err)
	}
	if n, err := fr.ReadAt(buf, 8000); err != io.EOF || n != 2000 || !bytes.Equal(buf[:n], data[8000:]) {
		t.Fatalf("ReadAt past the end = %d, %v; want 2000, io.EOF and the tail", n, err)
	}
	if _, err := fr.ReadAt(buf, -1); err == nil {
		t.Fatal("ReadAt at a negative offset succeeded")
	}
	fr.close()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// Another open file may now hold the descriptor.
	other, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if n, err := fr.ReadAt(buf, 0); !errors.Is(err, os.ErrClosed) || n != 0 {
		t.Fatalf("ReadAt after close = %d, %v; want 0, os.ErrClosed", n, err)
	}
}

// TestReaderReadsThroughPread: a table opened without direct reads reads
// its blocks through a fileReaderAt, which Close marks closed.
func TestReaderReadsThroughPread(t *testing.T) {
	es := randomEntries(rand.New(rand.NewPCG(1, 2)), 100, 50)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{})
	r := openTable(t, path, ReaderOptions{})
	if r.fr == nil || r.ra != io.ReaderAt(r.fr) {
		t.Fatalf("a table reads through %T, not its fileReaderAt", r.ra)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.fr.ReadAt(make([]byte, 1), 0); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("a read after Close = %v, want os.ErrClosed", err)
	}
}
