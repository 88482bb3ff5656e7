package statistics

import "sync"

// Shared is one Statistics for every database an engine's opener opens,
// as db_bench hands its one dbstats to every DB it opens: over several
// databases (--num_multi_db) and across the re-opens of fresh-database
// benchmarks, the counts cover them all. The zero Shared is ready; it
// makes its Statistics at the first For.
type Shared struct {
	mu sync.Mutex
	s  *Statistics
}

// Open returns the statistics of a database opened with statistics on
// (db_bench's --statistics) at level: sh's, or with a nil sh statistics
// of the database's own; nil when off.
func (sh *Shared) Open(on bool, level int) *Statistics {
	switch {
	case !on:
		return nil
	case sh == nil:
		return New(level)
	}
	return sh.For(level)
}

// For returns the shared Statistics, made at level (RocksDB's
// StatsLevel) on the first call; later calls return it whatever their
// level, as db_bench sets its level once.
func (sh *Shared) For(level int) *Statistics {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.s == nil {
		sh.s = New(level)
	}
	return sh.s
}
