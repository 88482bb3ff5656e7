package dbbench

import "sort"

// BenchmarkRow describes one benchmark name the driver knows, for the
// generated list in docs/BENCHMARK_LIST.md.
type BenchmarkRow struct {
	Name string
	// Kind is "threads" (a body run by benchmark threads), "meta" (an
	// operation on the open DB in the main goroutine) or "not built".
	Kind         string
	Fresh        bool // runs on a freshly destroyed DB
	ExtraThreads int  // threads added to --threads (a background writer or scanner)
	Project      bool // this project's own, not one of db_bench 7.8.3's
	Doc          string
	// Refused names the engines that refuse the benchmark, each with
	// what it lacks; such an engine exits 1 naming itself.
	Refused map[string]string
}

// BenchmarkTable returns every registered benchmark, sorted by name.
func BenchmarkTable() []BenchmarkRow {
	rows := make([]BenchmarkRow, 0, len(benchmarks))
	for name, def := range benchmarks {
		row := BenchmarkRow{Name: name, Fresh: def.fresh, ExtraThreads: def.extraThreads, Project: def.project, Doc: def.doc,
			Refused: def.engineGaps}
		switch {
		case def.notBuilt:
			row.Kind = "not built"
		case def.meta != nil:
			row.Kind = "meta"
		default:
			row.Kind = "threads"
		}
		rows = append(rows, row)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	return rows
}
