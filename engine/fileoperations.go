package engine

// FileOperationCounter is implemented by the Opener of an engine that
// counts its databases' file operations for db_bench's
// --report_file_operations (options.Options.ReportFileOperations): the
// counts cover every database the process opened with the option, as
// db_bench's counting file system does.
type FileOperationCounter interface {
	// FileOperations returns the counts since the last call (since the
	// first open before it) in db_bench's words, one "Num ...: N" line
	// each, and starts counting again from zero.
	FileOperations() string
}
