// Command db_bench is a drop-in replacement for RocksDB's db_bench: the same
// flags, defaults, key streams and output, over the native, pebble and
// rocksdb engines (--engine).
package main

import (
	"os"

	"github.com/godbbench/godbbench/dbbench"
	_ "github.com/godbbench/godbbench/engine/native"
	_ "github.com/godbbench/godbbench/engine/pebble"
	_ "github.com/godbbench/godbbench/engine/rocksdb"
)

func main() { os.Exit(dbbench.Main(os.Args[1:], os.Stdout, os.Stderr)) }
