package dbbench

// benchDef is one benchmark of the registry: what an item of --benchmarks
// with that name runs, and how db_bench's dispatch prepares it.
type benchDef struct {
	fn    benchFn // the body every benchmark thread runs
	fresh bool    // close, destroy and re-open the DB first (skipped with --use_existing_db)
	// extraThreads are added to --threads: a background writer or merger.
	extraThreads int
	// setup adjusts the counts for this item exactly where db_bench's
	// dispatch does (fillsync divides --num by 1000, readmissing lengthens
	// the key, ...), and makes db_bench's refusals; it may mark the item
	// skipped. It runs after the counts are reset, before anything else.
	setup func(r *runner, s *benchSpec) error
	// post, when set, runs in the main goroutine after the item's runs
	// have been reported (db_bench's post_process_method).
	post func(r *runner) error
	// meta, when set, is an operation on the open DB run in the main
	// goroutine (flush, compactall, stats, ...) instead of threads.
	meta func(r *runner) error
	// notBuilt marks a db_bench 7.8.3 benchmark this driver does not run:
	// it is skipped with a notice (such names are in db_bench's default
	// --benchmarks list), where an unknown name is fatal.
	notBuilt bool
}

// benchSpec is what one item of --benchmarks resolves to.
type benchSpec struct {
	name    string
	fn      benchFn
	fresh   bool
	threads int
	skip    bool // a benchmark not built here: print the notice and go on
}

// benchmarks is the registry: every benchmark name db_bench 7.8.3 knows,
// and this project's profiles.
var benchmarks map[string]benchDef

func init() {
	benchmarks = map[string]benchDef{
		// Writes into a fresh DB.
		"fillseq":          {fn: benchWriteSeq, fresh: true},
		"fillbatch":        {fn: benchWriteSeq, fresh: true, setup: setBatch1000},
		"fillrandom":       {fn: benchWriteRandom, fresh: true},
		"filluniquerandom": {fn: benchWriteUniqueRandom, fresh: true, setup: setupFillUniqueRandom},
		// db_bench runs the same body; the --disposable_entries_* and
		// --persistent_entries_* flags make the difference.
		"fillanddeleteuniquerandom": {fn: benchWriteUniqueRandom, fresh: true, setup: setupFillUniqueRandom},
		"fillsync":                  {fn: benchWriteRandom, fresh: true, setup: setupFillSync},
		"fill100K":                  {fn: benchWriteRandom, fresh: true, setup: setupFill100K},

		// Writes into the open DB.
		"overwrite":             {fn: benchWriteRandom},
		"updaterandom":          {fn: benchUpdateRandom},
		"xorupdaterandom":       {fn: benchXORUpdateRandom},
		"appendrandom":          {fn: benchAppendRandom},
		"randomreplacekeys":     {fn: benchRandomReplaceKeys, fresh: true},
		"timeseries":            {fn: benchTimeSeries, fresh: true, setup: setupTimeSeries},
		"deleteseq":             {fn: benchDeleteSeq},
		"deleterandom":          {fn: benchDeleteRandom},
		"readrandomwriterandom": {fn: benchReadRandomWriteRandom},
		"randomwithverify":      {fn: benchRandomWithVerify},

		// Reads.
		"readseq":         {fn: benchReadSequential},
		"readreverse":     {fn: benchReadReverse},
		"readtocache":     {fn: benchReadSequential, setup: setupReadToCache},
		"nextwithkey":     {fn: benchNextWithKey},
		"readrandom":      {fn: benchReadRandom, setup: setupReadRandom},
		"readmissing":     {fn: benchReadRandom, setup: setupReadMissing},
		"readrandomsmall": {fn: benchReadRandom, setup: setupReadRandomSmall},
		"multireadrandom": {fn: benchMultiReadRandom, setup: setupMultiReadRandom},
		"newiterator":     {fn: benchIteratorCreation},
		"seekrandom":      {fn: benchSeekRandom},
		"mixgraph":        {fn: benchMixGraph, setup: setupMixGraph},

		// YCSB's load and core workloads A-F (this project's).
		"ycsbload":       {fn: benchYCSBLoad, fresh: true, setup: setupYCSB},
		"ycsba":          {fn: benchYCSBRun, setup: setupYCSB},
		"ycsbb":          {fn: benchYCSBRun, setup: setupYCSB},
		"ycsbc":          {fn: benchYCSBRun, setup: setupYCSB},
		"ycsbd":          {fn: benchYCSBRun, setup: setupYCSB},
		"ycsbe":          {fn: benchYCSBRun, setup: setupYCSB},
		"ycsbf":          {fn: benchYCSBRun, setup: setupYCSB},
		"readrandomfast": {fn: benchReadRandomFast},
		"fillseekseq":    {fn: benchFillSeekSeq, setup: setupFillSeekSeq},

		// Reads beside a background writer.
		"readwhilewriting":        {fn: benchReadWhileWriting, extraThreads: 1},
		"newiteratorwhilewriting": {fn: benchIteratorCreationWhileWriting, extraThreads: 1},
		"seekrandomwhilewriting":  {fn: benchSeekRandomWhileWriting, extraThreads: 1},
		"readwhilescanning":       {fn: benchReadWhileScanning, extraThreads: 1},
		"readwhilemerging":        {fn: benchReadWhileMerging, extraThreads: 1, setup: setupWhileMerging},
		"seekrandomwhilemerging":  {fn: benchSeekRandomWhileMerging, extraThreads: 1, setup: setupWhileMerging},

		// Merges (engine.DB.Merge), with --merge_operator.
		"mergerandom":           {fn: benchMergeRandom, setup: refuseWithoutMergeOperator},
		"readrandommergerandom": {fn: benchReadRandomMergeRandom, setup: refuseWithoutMergeOperator},
		"getmergeoperands":      {fn: benchGetMergeOperands},

		// Transactions (engine.TransactionDB), checked after the run.
		"randomtransaction":  {fn: benchRandomTransaction, setup: setupRandomTransaction, post: (*runner).verifyRandomTransaction},
		"readrandomoperands": {fn: benchReadRandom, setup: setupReadRandomOperands},

		// Replay of a --trace_file trace (bench_replay.go).
		"replay": {fn: benchReplay, setup: setupReplay},

		// Backups (bench_backup.go).
		"backup":  {fn: benchBackup},
		"restore": {fn: benchRestore},

		// Compaction as a timed benchmark.
		"compact": {fn: benchCompact},

		// Operations on the open DB, run in the main goroutine.
		"profiles":          {meta: (*runner).runProfiles},
		"compactall":        {meta: (*runner).metaCompactAll},
		"flush":             {meta: (*runner).metaFlush},
		"waitforcompaction": {meta: (*runner).metaWaitForCompaction},
		"resetstats":        {meta: (*runner).metaResetStats},
		"stats":             {meta: printPropertyMeta("rocksdb.stats")},
		"levelstats":        {meta: printPropertyMeta("rocksdb.levelstats")},
		"sstables":          {meta: printPropertyMeta("rocksdb.sstables")},
		"memstats":          {meta: func(r *runner) error { r.printMemStats(); return nil }},
		"verify":            {meta: (*runner).metaVerify},

		// Maintenance calls (bench_maintenance.go).
		"approximatesizerandom":   {fn: benchApproximateSizeRandom, setup: setupApproximateSizeRandom},
		"verifychecksum":          {fn: benchVerifyChecksum},
		"verifyfilechecksums":     {fn: benchVerifyFileChecksums},
		"compact0":                {meta: func(r *runner) error { return r.metaCompactLevel(0) }},
		"compact1":                {meta: func(r *runner) error { return r.metaCompactLevel(1) }},
		"block_cache_entry_stats": {meta: printPropertyMeta("rocksdb.block-cache-entry-stats")},
		"stats_history":           {meta: (*runner).metaStatsHistory},

		// CPU benchmarks that touch no DB.
		"crc32c":      {fn: benchCrc32c},
		"xxhash":      {fn: benchXXHash},
		"xxhash64":    {fn: benchXXHash64},
		"xxh3":        {fn: benchXXH3},
		"acquireload": {fn: benchAcquireLoad},
		"compress":    {fn: benchCompress},
		"uncompress":  {fn: benchUncompress},

		"readtorowcache": {fn: benchReadToRowCache, setup: setupReadToRowCache},

		// Level shapes built with CompactFiles (bench_deterministic.go).
		"fillseqdeterministic":          {fn: benchFillSeqDeterministic, fresh: true, setup: setupFillDeterministic},
		"filluniquerandomdeterministic": {fn: benchFillUniqueRandomDeterministic, fresh: true, setup: setupFillDeterministic},
	}
}

// resolve looks name up in the registry and runs its setup. known is false
// for a name db_bench does not know.
func (r *runner) resolve(name string) (spec benchSpec, def benchDef, known bool, err error) {
	def, known = benchmarks[name]
	if !known {
		return spec, def, false, nil
	}
	spec = benchSpec{name: name, fn: def.fn, fresh: def.fresh, threads: int(r.cfg.threads) + def.extraThreads, skip: def.notBuilt}
	if def.setup != nil {
		err = def.setup(r, &spec)
	}
	return spec, def, true, err
}

func setBatch1000(r *runner, _ *benchSpec) error {
	r.entriesPerBatch = 1000
	return nil
}

func setupFillUniqueRandom(r *runner, s *benchSpec) error {
	if s.threads > 1 {
		r.errf("filluniquerandom and fillanddeleteuniquerandom multithreaded not supported, use 1 thread")
		s.threads = 1
	}
	return nil
}

func setupFillSync(r *runner, _ *benchSpec) error {
	r.num /= 1000
	r.wo.Sync = true
	return nil
}

func setupFill100K(r *runner, _ *benchSpec) error {
	r.num /= 1000
	r.valueSize = 100 * 1000
	r.shape.fixed = r.valueSize
	return nil
}

func setupReadToCache(r *runner, s *benchSpec) error {
	s.threads = 1
	r.reads = r.num
	return nil
}

func setupReadRandom(r *runner, _ *benchSpec) error {
	if r.cfg.multireadStride != 0 {
		r.errf("entries_per_batch = %d\n", r.entriesPerBatch)
	}
	return nil
}

func setupReadMissing(r *runner, _ *benchSpec) error {
	r.keySize++
	return nil
}

func setupReadRandomSmall(r *runner, _ *benchSpec) error {
	r.reads /= 1000
	return nil
}

func setupMultiReadRandom(r *runner, _ *benchSpec) error {
	r.errf("entries_per_batch = %d\n", r.entriesPerBatch)
	return nil
}

// setupWhileMerging: without --merge_operator, db_bench's background
// merger fails on its first Merge and the run ends, which
// benchMergeWithoutOperator reproduces whatever the engine.
func setupWhileMerging(r *runner, s *benchSpec) error {
	if r.cfg.mergeOperator == "" {
		s.fn = benchMergeWithoutOperator
	}
	return nil
}

// setupReadRandomOperands sets db_bench's read_operands_, which stays set
// for the rest of the run.
func setupReadRandomOperands(r *runner, _ *benchSpec) error {
	r.readOperands = true
	return nil
}

// refuseAutoCompactions: db_bench's dispatch refuses the deterministic
// fills unless auto compactions are off, and that refusal ends the default
// --benchmarks list.
func refuseAutoCompactions(r *runner, _ *benchSpec) error {
	if r.cfg.disableAutoCompactions {
		return nil
	}
	r.out.Flush()
	r.errf("Please disable_auto_compactions in FillDeterministic benchmark\n")
	return errExit{"auto compactions on"}
}

// refuseWithoutMergeOperator: without --merge_operator db_bench refuses the
// merge benchmarks with this line on stdout and exit code 1.
// With --merge_keys=0 db_bench dies of SIGFPE on its first key (rand %
// 0); this says why instead.
func refuseWithoutMergeOperator(r *runner, s *benchSpec) error {
	if r.cfg.mergeOperator == "" {
		r.outf("%-12s : skipped (--merge_operator is unknown)\n", s.name)
		return errExit{"no merge operator"}
	}
	if _, n := r.mergeKeyGen(); n == 0 && r.readwrites != 0 {
		r.out.Flush()
		r.errf("%s: --merge_keys=0 (or --num=0) leaves no key to merge\n", s.name)
		return errExit{"no merge keys"}
	}
	return nil
}

// printPropertyMeta is the meta operation printing one DB property.
func printPropertyMeta(property string) func(r *runner) error {
	return func(r *runner) error {
		r.printProperty(property)
		return nil
	}
}
