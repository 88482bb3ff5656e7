// Command memtablerep_bench is a drop-in for RocksDB's memtablerep_bench;
// see package memtablerepbench.
package main

import (
	"os"

	_ "github.com/godbbench/godbbench/memtable/badgerskl"
	_ "github.com/godbbench/godbbench/memtable/cspp"
	_ "github.com/godbbench/godbbench/memtable/hashrep"
	_ "github.com/godbbench/godbbench/memtable/offsetskiplist"
	_ "github.com/godbbench/godbbench/memtable/skiplist"
	_ "github.com/godbbench/godbbench/memtable/vector"
	"github.com/godbbench/godbbench/memtablerepbench"
)

func main() {
	os.Exit(memtablerepbench.Main(os.Args[1:], os.Stdout, os.Stderr))
}
