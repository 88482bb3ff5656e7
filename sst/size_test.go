package sst

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestOpenRefusesSizeMismatch requires Open to compare the recorded size
// with the file's before reading or mapping anything.
func TestOpenRefusesSizeMismatch(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeTable(t, dir, sequentialEntries(100), WriterOptions{})
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, mmap := range []bool{false, true} {
		for _, size := range []int64{st.Size() + 1, st.Size() + 8192, st.Size() - 1} {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Open(f, size, ReaderOptions{Mmap: mmap, Name: path})
			if err == nil {
				r.Close()
				t.Fatalf("mmap %v: Open with size %d of a %d-byte file succeeded", mmap, size, st.Size())
			}
			want := fmt.Sprintf("Sst file size mismatch: %s. Size recorded in manifest %d, actual size %d", path, size, st.Size())
			if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), want) {
				t.Fatalf("mmap %v: Open with size %d: %v", mmap, size, err)
			}
		}
	}
}
