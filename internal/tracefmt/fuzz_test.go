package tracefmt

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to the reader and every decoder: they
// return errors, never panic, and a trace that decodes re-encodes to a
// trace that decodes to the same bytes again.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("testdata/cxx_*.trace")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		once, err := reencode(t, data)
		if err != nil {
			return
		}
		twice, err := reencode(t, once)
		if err != nil {
			t.Fatalf("re-encoded trace does not decode: %v", err)
		}
		if !bytes.Equal(once, twice) {
			t.Fatalf("re-encoding is not stable")
		}
	})
}
