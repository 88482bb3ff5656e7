package dbbench

import "github.com/godbbench/godbbench/engine"

// printFileOperations prints, with --report_file_operations, the file
// operations counted since the last report (engine.FileOperationCounter),
// right after a benchmark's result line and histograms, as db_bench's
// Stats::Report does. Engines that cannot count refuse the flag at open.
func (r *runner) printFileOperations() {
	if !r.opts.ReportFileOperations {
		return
	}
	if c, ok := r.opener.(engine.FileOperationCounter); ok {
		r.outf("%s", c.FileOperations())
	}
}
