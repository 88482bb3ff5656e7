package engine

// StatisticsSharer is implemented by the Opener of an engine whose
// databases can count in one statistics object, as db_bench hands its one
// Statistics (dbstats) to the options of every DB it opens.
type StatisticsSharer interface {
	// SharingStatistics returns an Opener of the same engine, with the
	// same optional interfaces, whose every Open with
	// options.Options.Statistics counts in one statistics object, made at
	// its first such Open with that Open's StatsLevel: the
	// StatisticsProperty of each of its databases is the block of all of
	// them, of those already closed too (the databases of --num_multi_db,
	// the re-opens of fresh-database benchmarks).
	SharingStatistics() Opener
}
