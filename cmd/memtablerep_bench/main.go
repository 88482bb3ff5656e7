// Command memtablerep_bench is a drop-in for RocksDB's memtablerep_bench;
// see package memtable/bench.
package main

import (
	"os"

	_ "github.com/godbbench/godbbench/memtable/badgerskl"
	"github.com/godbbench/godbbench/memtable/bench"
	_ "github.com/godbbench/godbbench/memtable/cspp"
	_ "github.com/godbbench/godbbench/memtable/offsetskiplist"
	_ "github.com/godbbench/godbbench/memtable/skiplist"
)

func main() {
	os.Exit(bench.Main(os.Args[1:], os.Stdout, os.Stderr))
}
