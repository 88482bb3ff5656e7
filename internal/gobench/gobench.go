// Package gobench writes db_bench results in the Go benchmark format
// (golang.org/design/14313-benchmark-format), which benchstat reads:
// configuration lines "key: value", then one line per result
//
//	BenchmarkFillrandom/engine=native	200000	3984.0 ns/op	251000 ops/s	27.8 MB/s
//
// name, iteration count (the operations done), and value-unit pairs.
//
// Contract: Name keeps each part free of the characters the format gives a
// meaning (space ends a name, '/' and '=' separate sub-benchmark keys and
// values); Config keeps a value on one line; Result writes MB/s only when
// it is positive (db_bench prints it only for benchmarks that count bytes).
package gobench

import (
	"fmt"
	"io"
	"strings"
	"unicode"
)

// Name is "Benchmark" and the db_bench benchmark name with its first letter
// upper-cased, then "/key=value" for each pair of keyValues.
func Name(benchmark string, keyValues ...string) string {
	var b strings.Builder
	b.WriteString("Benchmark")
	part := Part(benchmark)
	if part != "" {
		r := []rune(part)
		r[0] = unicode.ToUpper(r[0])
		part = string(r)
	}
	b.WriteString(part)
	for i := 0; i+1 < len(keyValues); i += 2 {
		b.WriteString("/" + Part(keyValues[i]) + "=" + Part(keyValues[i+1]))
	}
	return b.String()
}

// Part replaces spaces, '/' and '=' in s with '_'.
func Part(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '/' || r == '=' {
			return '_'
		}
		return r
	}, s)
}

// Config writes a configuration line.
func Config(w io.Writer, key, value string) {
	fmt.Fprintf(w, "%s: %s\n", key, strings.ReplaceAll(value, "\n", " "))
}

// Result writes one result line: ops operations at nsPerOp nanoseconds
// each, opsPerSec, and mbPerSec when positive.
func Result(w io.Writer, name string, ops int64, nsPerOp float64, opsPerSec int64, mbPerSec float64) {
	fmt.Fprintf(w, "%s\t%d\t%.1f ns/op\t%d ops/s", name, ops, nsPerOp, opsPerSec)
	if mbPerSec > 0 {
		fmt.Fprintf(w, "\t%.1f MB/s", mbPerSec)
	}
	fmt.Fprintln(w)
}
