package engine

// Tracer is implemented by a DB whose engine records query traces itself
// in RocksDB's trace format (RocksDB's DB::StartTrace), which db_bench's
// --trace_file then uses instead of the driver's recorder. StartTrace
// starts recording every read and write into the file at path; EndTrace
// writes the footer and closes it.
type Tracer interface {
	StartTrace(path string) error
	EndTrace() error
}
