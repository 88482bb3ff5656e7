package dbbench

import (
	"io"
	"os"
	"testing"

	"github.com/godbbench/godbbench/internal/tracefmt"
)

// EachTraceRecord calls fn with every record of the trace file at path
// and the trace's format version, failing the test on a file it cannot
// read. It is exported for the package's external tests.
func EachTraceRecord(t *testing.T, path string, fn func(version int, rec tracefmt.Record)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := tracefmt.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		fn(r.Version(), rec)
	}
}
