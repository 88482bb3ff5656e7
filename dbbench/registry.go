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

	// doc says in one line what the benchmark does; it makes the
	// catalogue in --benchmarks' help and the list in
	// docs/BENCHMARK_LIST.md.
	doc string
	// project marks a benchmark db_bench 7.8.3 lacks.
	project bool
	// severalDBs: the benchmark runs on --num_multi_db > 1 databases as
	// db_bench runs it (multidb.go); any other stops such a run
	// (checkSeveralDBs) rather than measure the first database alone.
	severalDBs bool
	// severalDBRefusal is db_bench's own refusal of the benchmark with
	// several databases, in its words.
	severalDBRefusal string
	// engineGaps names the engines that refuse the built benchmark, each
	// with what it lacks; such an engine exits 1 naming itself.
	engineGaps map[string]string
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
		"fillseq": {fn: benchWriteSeq, fresh: true, severalDBs: true,
			doc: "write --num entries with keys in order into a fresh DB"},
		"fillbatch": {fn: benchWriteSeq, fresh: true, setup: setBatch1000, severalDBs: true,
			doc: "fillseq in batches of 1000 entries"},
		"fillrandom": {fn: benchWriteRandom, fresh: true, severalDBs: true,
			doc: "write --num entries with random keys into a fresh DB"},
		"filluniquerandom": {fn: benchWriteUniqueRandom, fresh: true, setup: setupFillUniqueRandom, severalDBs: true,
			doc: "write each of --num keys once, in a shuffled order (one thread)"},
		// db_bench runs the same body; the --disposable_entries_* and
		// --persistent_entries_* flags make the difference.
		"fillanddeleteuniquerandom": {fn: benchWriteUniqueRandom, fresh: true, setup: setupFillUniqueRandom, severalDBs: true,
			doc: "filluniquerandom that deletes disposable entries (--disposable_entries_*)"},
		"fillsync": {fn: benchWriteRandom, fresh: true, setup: setupFillSync, severalDBs: true,
			doc: "fillrandom of --num/1000 entries, each write synced"},
		"fill100K": {fn: benchWriteRandom, fresh: true, setup: setupFill100K, severalDBs: true,
			doc: "fillrandom of --num/1000 entries with 100 KB values"},

		// Writes into the open DB.
		"overwrite": {fn: benchWriteRandom, severalDBs: true,
			doc: "write random keys into the existing DB"},
		"updaterandom": {fn: benchUpdateRandom, severalDBs: true,
			doc: "read a random key, then write it back with a new value"},
		"xorupdaterandom": {fn: benchXORUpdateRandom, severalDBs: true,
			doc: "read a random key, XOR a new value into it and write it back"},
		"appendrandom": {fn: benchAppendRandom, severalDBs: true,
			doc: "read a random key and write it back with a value appended"},
		"randomreplacekeys": {fn: benchRandomReplaceKeys, fresh: true, severalDBs: true,
			doc: "delete and rewrite keys drawn from a normal distribution (--numdistinct, --stddev)"},
		"timeseries": {fn: benchTimeSeries, fresh: true, setup: setupTimeSeries, severalDBs: true,
			doc: "one writer of time-stamped keys beside readers (or deleters) of random ids"},
		"deleteseq": {fn: benchDeleteSeq, severalDBs: true,
			doc: "delete keys in order"},
		"deleterandom": {fn: benchDeleteRandom, severalDBs: true,
			doc: "delete random keys"},
		"readrandomwriterandom": {fn: benchReadRandomWriteRandom, severalDBs: true,
			doc: "mix random reads and writes by --readwritepercent"},
		"randomwithverify": {fn: benchRandomWithVerify, severalDBs: true,
			doc: "reads, writes and deletes of three-key groups, checking each group reads as one"},

		// Reads.
		"readseq": {fn: benchReadSequential, severalDBs: true,
			doc: "scan the DB forward"},
		"readreverse": {fn: benchReadReverse, severalDBs: true,
			doc: "scan the DB backward"},
		"readtocache": {fn: benchReadSequential, setup: setupReadToCache, severalDBs: true,
			doc: "one-thread forward scan of every key, to warm the caches"},
		"nextwithkey": {fn: benchNextWithKey, project: true,
			doc: "forward scan of keys only, never values (ToplingDB's; this project's)"},
		"readrandom": {fn: benchReadRandom, setup: setupReadRandom, severalDBs: true,
			doc: "read random keys"},
		"readmissing": {fn: benchReadRandom, setup: setupReadMissing, severalDBs: true,
			doc: "read keys one byte longer than any written, so every read misses"},
		"readrandomsmall": {fn: benchReadRandom, setup: setupReadRandomSmall, severalDBs: true,
			doc: "readrandom of --reads/1000 keys"},
		"multireadrandom": {fn: benchMultiReadRandom, setup: setupMultiReadRandom, severalDBs: true,
			doc: "read random keys in batches of --batch_size (MultiGet)"},
		"newiterator": {fn: benchIteratorCreation, severalDBs: true,
			doc: "create and destroy iterators"},
		"seekrandom": {fn: benchSeekRandom, severalDBs: true,
			doc: "seek to random keys, then step --seek_nexts times"},
		"mixgraph": {fn: benchMixGraph, setup: setupMixGraph, severalDBs: true,
			doc: "Get/Put/Seek mix with modelled key, value-size and scan-length distributions"},

		// YCSB's load and core workloads A-F (this project's).
		"ycsbload": {fn: benchYCSBLoad, fresh: true, setup: setupYCSB, project: true,
			doc: "YCSB's load phase: --recordcount records into a fresh DB (this project's)"},
		"ycsba": {fn: benchYCSBRun, setup: setupYCSB, project: true,
			doc: "YCSB workload A: 50% reads, 50% updates, Zipfian keys (this project's)"},
		"ycsbb": {fn: benchYCSBRun, setup: setupYCSB, project: true,
			doc: "YCSB workload B: 95% reads, 5% updates, Zipfian keys (this project's)"},
		"ycsbc": {fn: benchYCSBRun, setup: setupYCSB, project: true,
			doc: "YCSB workload C: reads only, Zipfian keys (this project's)"},
		"ycsbd": {fn: benchYCSBRun, setup: setupYCSB, project: true,
			doc: "YCSB workload D: 95% reads of the latest keys, 5% inserts (this project's)"},
		"ycsbe": {fn: benchYCSBRun, setup: setupYCSB, project: true,
			doc: "YCSB workload E: 95% short scans, 5% inserts, Zipfian keys (this project's)"},
		"ycsbf": {fn: benchYCSBRun, setup: setupYCSB, project: true,
			doc: "YCSB workload F: 50% reads, 50% read-modify-writes, Zipfian keys (this project's)"},
		"readrandomfast": {fn: benchReadRandomFast, severalDBs: true,
			doc: "read random keys under a power-of-two mask, counting the ones past --num"},
		"fillseekseq": {fn: benchFillSeekSeq, setup: setupFillSeekSeq, severalDBs: true,
			doc: "fillseq, then seek to each key in order and step --seek_nexts times"},

		// Reads beside a background writer.
		"readwhilewriting": {fn: benchReadWhileWriting, extraThreads: 1, severalDBs: true,
			doc: "readrandom beside one thread writing random keys"},
		"newiteratorwhilewriting": {fn: benchIteratorCreationWhileWriting, extraThreads: 1, severalDBs: true,
			doc: "newiterator beside one thread writing random keys"},
		"seekrandomwhilewriting": {fn: benchSeekRandomWhileWriting, extraThreads: 1, severalDBs: true,
			doc: "seekrandom beside one thread writing random keys"},
		"readwhilescanning": {fn: benchReadWhileScanning, extraThreads: 1, severalDBRefusal: "Not supporting multiple DBs.",
			doc: "readrandom beside one thread scanning the DB over and over"},
		"readwhilemerging": {fn: benchReadWhileMerging, extraThreads: 1, setup: setupWhileMerging, severalDBs: true,
			doc: "readrandom beside one thread merging into random keys"},
		"seekrandomwhilemerging": {fn: benchSeekRandomWhileMerging, extraThreads: 1, setup: setupWhileMerging, severalDBs: true,
			doc: "seekrandom beside one thread merging into random keys"},

		// Merges (engine.DB.Merge), with --merge_operator.
		"mergerandom": {fn: benchMergeRandom, setup: refuseWithoutMergeOperator, severalDBs: true,
			doc: "merge values into random keys (--merge_operator)"},
		"readrandommergerandom": {fn: benchReadRandomMergeRandom, setup: refuseWithoutMergeOperator, severalDBs: true,
			doc: "mix random reads and merges by --mergereadpercent"},
		"getmergeoperands": {fn: benchGetMergeOperands, severalDBs: true, engineGaps: map[string]string{"pebble": "GetMergeOperands"},
			doc: "look up keys holding many merge operands, with Get and with their operands"},

		// Transactions (engine.TransactionDB), checked after the run.
		"randomtransaction": {fn: benchRandomTransaction, setup: setupRandomTransaction, post: (*runner).verifyRandomTransaction, severalDBRefusal: "Cannot run RandomTransaction benchmark with FLAGS_multi_db > 1.",
			doc: "run transactions over several keys and check the sets stay consistent"},
		"readrandomoperands": {fn: benchReadRandom, setup: setupReadRandomOperands, severalDBs: true, engineGaps: map[string]string{"pebble": "GetMergeOperands"},
			doc: "read the merge operands of random keys"},

		// Replay of a --trace_file trace (bench_replay.go).
		"replay": {fn: benchReplay, setup: setupReplay, severalDBs: true,
			doc: "replay the operations of --trace_file"},

		// Backups (bench_backup.go).
		"backup": {fn: benchBackup, severalDBs: true,
			doc: "back the DB up to --backup_dir"},
		"restore": {fn: benchRestore, severalDBs: true,
			doc: "restore the DB from --backup_dir into --restore_dir"},

		// Compaction as a timed benchmark.
		"compact": {fn: benchCompact, severalDBs: true,
			doc: "compact the whole key range, timed"},

		// Operations on the open DB, run in the main goroutine.
		"profiles": {meta: (*runner).runProfiles, project: true,
			doc: "ZoneTree's profiles workload (this project's; --profiles_* flags)"},
		"compactall": {meta: (*runner).metaCompactAll, severalDBs: true,
			doc: "compact the whole key range"},
		"flush": {meta: (*runner).metaFlush, severalDBs: true,
			doc: "flush the memtables"},
		"waitforcompaction": {meta: (*runner).metaWaitForCompaction, severalDBs: true,
			doc: "wait until no flush or compaction is pending or running"},
		"resetstats": {meta: (*runner).metaResetStats, severalDBs: true,
			doc: "reset the DB's cumulative statistics"},
		"stats": {meta: printPropertyMeta("rocksdb.stats"), severalDBs: true,
			doc: "print the DB's statistics (rocksdb.stats)"},
		"levelstats": {meta: printPropertyMeta("rocksdb.levelstats"), severalDBs: true,
			doc: "print files and bytes per level (rocksdb.levelstats)"},
		"sstables": {meta: printPropertyMeta("rocksdb.sstables"), severalDBs: true,
			doc: "print the table files (rocksdb.sstables)"},
		"memstats": {meta: func(r *runner) error { r.printMemStats(); return nil }, severalDBs: true,
			doc: "print the memtables' sizes and entry counts"},
		"verify": {meta: (*runner).metaVerify,
			doc: "check that the DB holds exactly what --truth_db holds"},

		// Maintenance calls (bench_maintenance.go).
		"approximatesizerandom": {fn: benchApproximateSizeRandom, setup: setupApproximateSizeRandom, severalDBs: true,
			doc: "ask the DB for the approximate size of random key ranges"},
		"verifychecksum": {fn: benchVerifyChecksum, severalDBs: true,
			doc: "verify the checksums of every table block"},
		"verifyfilechecksums": {fn: benchVerifyFileChecksums, severalDBs: true,
			doc: "verify every table file against its recorded file checksum"},
		"compact0": {meta: func(r *runner) error { return r.metaCompactLevel(0) }, severalDBs: true,
			doc: "compact the files of L0 into the next level holding data (pebble: their key range, to its last level)"},
		"compact1": {meta: func(r *runner) error { return r.metaCompactLevel(1) }, severalDBs: true,
			doc: "compact the files of the first level below L0 into the next holding data (pebble: as compact0)"},
		"block_cache_entry_stats": {meta: printPropertyMeta("rocksdb.block-cache-entry-stats"), severalDBs: true,
			doc: "print the block cache's entries by kind"},
		"stats_history": {meta: (*runner).metaStatsHistory, severalDBs: true,
			doc: "print the statistics history the DB kept"},

		// CPU benchmarks that touch no DB.
		"crc32c": {fn: benchCrc32c, severalDBs: true,
			doc: "CRC32C of a --block_size buffer, repeated"},
		"xxhash": {fn: benchXXHash, severalDBs: true,
			doc: "xxHash32 of a --block_size buffer, repeated"},
		"xxhash64": {fn: benchXXHash64, severalDBs: true,
			doc: "xxHash64 of a --block_size buffer, repeated"},
		"xxh3": {fn: benchXXH3, severalDBs: true,
			doc: "XXH3 of a --block_size buffer, repeated"},
		"acquireload": {fn: benchAcquireLoad, severalDBs: true,
			doc: "atomic acquire loads, 1000 per operation"},
		"compress": {fn: benchCompress, severalDBs: true,
			doc: "compress a --block_size block with --compression_type, repeated"},
		"uncompress": {fn: benchUncompress, severalDBs: true,
			doc: "uncompress a --block_size block, repeated"},

		"readtorowcache": {fn: benchReadToRowCache, setup: setupReadToRowCache,
			doc: "read existing keys through the row cache"},

		// Level shapes built with CompactFiles (bench_deterministic.go).
		"fillseqdeterministic": {fn: benchFillSeqDeterministic, fresh: true, setup: setupFillDeterministic, severalDBs: true, engineGaps: map[string]string{"pebble": "CompactFiles of named tables"},
			doc: "fill level by level with sequential keys, then compact deterministically"},
		"filluniquerandomdeterministic": {fn: benchFillUniqueRandomDeterministic, fresh: true, setup: setupFillDeterministic, severalDBs: true, engineGaps: map[string]string{"pebble": "CompactFiles of named tables"},
			doc: "fill level by level with shuffled keys, then compact deterministically"},
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
