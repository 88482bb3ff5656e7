// Package flags defines the command-line flags of db_bench 7.8.3 (all 357 of
// them, with 7.8.3's defaults and validators) and this project's extensions
// on an internal/gflags FlagSet.
//
// Contract: Register binds every flag to a field of Flags (the field name
// capitalises each '_'-separated word of the flag name: use_existing_db is
// UseExistingDb, wal_size_limit_MB is WalSizeLimitMB) and attaches db_bench's
// validators. After FlagSet.Parse the fields hold the parsed values; which
// flags the user gave explicitly comes from FlagSet.IsSet and FlagSet.Visit.
//
// The flag table is generated (go generate) from
// testdata/dbbench-7.8.3-flags.txt, one "name:type=default" line per flag in
// the notation of the reference (b bool, i32, i64, u32, u64, d double,
// s string), plus internal/gen/help.txt, internal/gen/extensions.txt and
// internal/gen/debian-extras.txt.
// The test checks the registered flags against that list, and the list
// against the reference document when it is available.
package flags

//go:generate go run ./internal/gen

import "github.com/godbbench/godbbench/internal/gflags"

// Version is the db_bench version this flag set reproduces; --version prints
// "db_bench version 7.8.3".
const Version = "7.8.3"

// Source file names the flags are listed under by --help (gflags groups flags
// by the file that defines them); the RocksDB ones are spelled as in the
// Debian 7.8.3 build.
const (
	DBBenchFile    = "./tools/db_bench_tool.cc"
	ExtensionsFile = "./tools/godbbench_extensions.go"
)

// Register defines every db_bench 7.8.3 flag and this project's extensions
// on fs, attaches db_bench's validators, and returns the bound values. It also
// accepts (and ignores) the 59 trace-analyzer, block-cache-analyzer and
// I/O-tracer flags that the Debian db_bench accepts because its library links
// those tools in.
func Register(fs *gflags.FlagSet) *Flags {
	f := &Flags{}
	fs.SetFile(DBBenchFile)
	registerDBBench(fs, f)
	attachValidators(fs)
	fs.SetFile(ExtensionsFile)
	registerExtensions(fs, f)
	registerDebianExtras(fs)
	return f
}

// NewFlagSet returns a FlagSet for db_bench invoked as argv0, with the usage
// message and version db_bench reports, and the registered flags.
func NewFlagSet(argv0 string) (*gflags.FlagSet, *Flags) {
	fs := gflags.NewFlagSet(argv0, Version) // its default usage message is db_bench's
	return fs, Register(fs)
}
