package rocksdb

import "github.com/godbbench/godbbench/engine"

// OptionNotes are the options the rocksdb engine applies differently from
// C++ db_bench on the same library (engine.OptionNote); it applies every
// other option as db_bench does.
var OptionNotes = []engine.OptionNote{
	{Key: "table_format", How: "block only: any other table format is refused at open"},
	{Key: "block_cache_trace_file", How: "one trace from open to close; C++ db_bench restarts it for each benchmark, so its file holds the last one"},
	{Key: "use_keep_filter", How: "installed from the first open on; C++ db_bench 7.8.3 installs it after its first open, so only its reopened databases filter"},
	{Key: "merge_operator", How: "sortlist is the engine's own MergeSortOperator: RocksDB's reads each operand past its end up to a NUL byte, so it can merge bytes never written or abort the process; this one reads the operand alone and declines partial merges"},
	{Key: "cache_type", How: "fast_lru_cache becomes lru_cache, with a warning: RocksDB builds it from a header Debian does not install"},
}
