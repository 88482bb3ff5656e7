package flags

import (
	"io"
	"testing"
)

// BenchmarkNewFlagSet measures start-up cost: registering all flags.
func BenchmarkNewFlagSet(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		NewFlagSet("./db_bench")
	}
}

// BenchmarkParseTypical parses a benchmark.sh-sized command line.
func BenchmarkParseTypical(b *testing.B) {
	args := []string{"--benchmarks=fillseq,readrandom", "--num=1000000", "--value_size=400", "--threads=4",
		"--compression_type=lz4", "--cache_size=1073741824", "--histogram=1", "--seed=1", "--db=/tmp/x",
		"--undefok=foo", "--foo=1", "--nouse_existing_db", "--max_bytes_for_level_multiplier", "8"}
	b.ReportAllocs()
	for b.Loop() {
		fs, _ := NewFlagSet("./db_bench")
		fs.SetOutput(io.Discard, io.Discard)
		if _, err := fs.Parse(args); err != nil {
			b.Fatal(err)
		}
	}
}
