package native

import (
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/fileops"
	"github.com/godbbench/godbbench/options"
)

var _ engine.FileOperationCounter = Opener{}

// FileOperations implements engine.FileOperationCounter with the
// process's counters, which every DB opened with
// --report_file_operations counts into (lsm/fs_counted.go says what
// counts as what).
func (Opener) FileOperations() string { return fileops.Process.Report() }

// fileCounts returns the counters a DB opened with o counts into, nil
// without --report_file_operations.
func fileCounts(o *options.Options) *fileops.Counters {
	if !o.ReportFileOperations {
		return nil
	}
	return &fileops.Process
}
