package dbdestroy

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/fileops"
	"github.com/godbbench/godbbench/options"
)

type nopLock struct{}

func (nopLock) Close() error { return nil }

// TestDestroyCountsDeletes: with --report_file_operations every file
// Destroy unlinks (the DB's, the separate WAL directory's and LOCK) counts
// as a file deleted, as RocksDB's DestroyDB counts its DeleteFile calls;
// files that are not the engine's, the directories and a run without the
// flag count nothing.
func TestDestroyCountsDeletes(t *testing.T) {
	spec := Spec{
		Lock: func(path string) (io.Closer, error) {
			return nopLock{}, os.WriteFile(path, nil, 0o644)
		},
		DBFile:  func(n string) bool { return strings.HasSuffix(n, ".sst") || n == "CURRENT" },
		WALFile: func(n string) bool { return strings.HasSuffix(n, ".log") },
	}
	for _, report := range []bool{false, true} {
		root := t.TempDir()
		dir, walDir := filepath.Join(root, "db"), filepath.Join(root, "wal")
		for _, p := range []string{dir, walDir} {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range []string{
			filepath.Join(dir, "000001.sst"), filepath.Join(dir, "000002.sst"), filepath.Join(dir, "CURRENT"),
			filepath.Join(dir, "notes.txt"), filepath.Join(walDir, "000003.log"),
		} {
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fileops.Process.Report() // zero the counters
		opts := &options.Options{WALDir: walDir}
		opts.ReportFileOperations = report
		if err := Destroy(dir, opts, spec); err != nil {
			t.Fatal(err)
		}
		want := uint64(0)
		if report {
			want = 5 // two tables, CURRENT, the WAL, LOCK
		}
		if got := fileops.Process.Deletes.Load(); got != want {
			t.Errorf("report_file_operations=%v: %d files deleted counted, want %d", report, got, want)
		}
		if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
			t.Errorf("a file that is not the engine's went: %v", err)
		}
	}
	fileops.Process.Report()
}
