package dbbench

import "github.com/godbbench/godbbench/engine"

// shareStatistics is db_bench's one dbstats: the opener of every database
// the run opens, so that with --statistics they count in one statistics
// object, over the databases of --num_multi_db and across the re-opens of
// fresh-database benchmarks, and the STATISTICS block at the end counts
// the whole run. An engine that cannot share keeps its opener.
func shareStatistics(opener engine.Opener) engine.Opener {
	if s, ok := opener.(engine.StatisticsSharer); ok {
		return s.SharingStatistics()
	}
	return opener
}

// printStatistics prints the STATISTICS: block, db_bench's
// dbstats->ToString() after the last benchmark, when the engine keeps
// RocksDB-style statistics.
func (r *runner) printStatistics() {
	v, ok := r.db.Property(engine.StatisticsProperty)
	if !ok {
		r.errf("WARNING: engine %s keeps no statistics; --statistics has no block to print\n", r.opener.Info().Name)
		return
	}
	if _, shared := r.opener.(engine.StatisticsSharer); r.multi != nil && !shared {
		r.errf("WARNING: --statistics with --num_multi_db=%d: the STATISTICS block counts %s only\n", r.cfg.numMultiDB, r.multi[0].path)
	}
	r.outf("STATISTICS:\n%s\n", v)
}
