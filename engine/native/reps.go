package native

// The memtable reps --memtablerep can select for the native engine. Package
// lsm looks reps up by name and registers none itself; they are linked in
// here, where the engine is assembled.
import (
	_ "github.com/godbbench/godbbench/memtable/cspp"
	_ "github.com/godbbench/godbbench/memtable/hashrep"
	_ "github.com/godbbench/godbbench/memtable/offsetskiplist"
	_ "github.com/godbbench/godbbench/memtable/skiplist"
	_ "github.com/godbbench/godbbench/memtable/vector"
)
