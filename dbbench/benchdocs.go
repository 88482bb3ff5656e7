package dbbench

import (
	"sort"
	"strings"
)

// benchmarkCatalogue is the catalogue appended to --benchmarks' help: each
// name with its line, the ones not built marked so.
func benchmarkCatalogue() string {
	names := make([]string, 0, len(benchmarks))
	for n := range benchmarks {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(" Benchmarks (\"not built\": skipped with a notice):")
	for _, n := range names {
		b.WriteString(" " + n + " -- " + benchmarks[n].doc)
		if benchmarks[n].notBuilt {
			b.WriteString(" (not built)")
		}
		b.WriteString(";")
	}
	return b.String()
}
