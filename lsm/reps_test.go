package lsm

// The memtable reps the tests open databases with (--memtablerep names).
// The package itself registers none: whoever assembles an engine does.
import (
	_ "github.com/godbbench/godbbench/memtable/cspp"
	_ "github.com/godbbench/godbbench/memtable/hashrep"
	_ "github.com/godbbench/godbbench/memtable/offsetskiplist"
	_ "github.com/godbbench/godbbench/memtable/skiplist"
	_ "github.com/godbbench/godbbench/memtable/vector"
)
