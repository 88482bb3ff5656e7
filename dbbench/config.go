package dbbench

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/internal/gflags"
	"github.com/godbbench/godbbench/options"
)

// config is the driver's view of the flags, in the types the hot loops use.
// configFlags says which flag fills each field; makeConfig then applies
// db_bench's start-up rules.
type config struct {
	engine                   string
	db                       string
	benchmarks               string
	num, reads, writes       int64
	deletes, readwrites      int64
	threads                  int32
	keySize, valueSize       int
	valueDist                string // lower case once checkAfterSeed ran
	valueDistName            string // as the flag spelled it, for the header
	valueSizeMin             int
	valueSizeMax             int
	compressionRatio         float64
	batchSize                int64
	sync, disableWAL         bool
	useExistingDB            bool
	readonly                 bool
	histogram                bool
	slowUsecs                uint64
	progressReports          bool
	statsInterval            int64
	statsIntervalSeconds     int64
	statsPerInterval         int32
	reportInterval           int64
	reportFile               string
	writeRateLimit           uint64
	readRateLimit            uint64
	duration                 int32
	opsBetweenDurationChecks int32
	userTimestampSize        int
	finishAfterWrites        bool
	readRandomExpRange       float64
	scanOmitKey              bool
	scanOmitValue            bool
	maxScanDistance          int64
	reverseIterator          bool
	seekNexts                int32
	seekMissingPrefix        bool
	readWritePercent         int32
	deletePercent            int32
	truthDB                  string // verify: the DB to compare with
	compactTargetLevel       int32
	multireadStride          int64
	confidenceIntervalOnly   bool
	reportBenchStartTime     bool
	keysPerPrefix            int64
	prefixSize               int
	statistics               bool
	statisticsString         string
	perfLevel                int // --perf_level, handed to engine.ThreadContext
	disableAutoCompactions   bool
	mergeOperator            string
	mergeKeys                int64 // --merge_keys: distinct keys of the merge benchmarks (< 0: num)
	mergeReadPercent         int32 // --mergereadpercent: merges among readrandommergerandom's operations
	seed                     int64
	numDistinct              int64   // randomreplacekeys: keys replaced
	replaceKeysStddev        float64 // randomreplacekeys: spread of the key choice
	useSingleDeletes         bool
	traceFile                string  // --trace_file: record each benchmark's operations, or replay's input
	traceReplayFastForward   float64 // replay: the trace's clock runs this much faster
	traceReplayThreads       int32   // replay: goroutines executing the records
	backupDir                string  // backup and restore: the backups (default DB/backup)
	restoreDir               string  // restore: where the DB is restored (default DB/restore)
	backupRateLimit          uint64  // backup: bytes per second copied, 0 unlimited
	restoreRateLimit         uint64  // restore: bytes per second copied, 0 unlimited
	transactions             transactionConfig

	// The header's inputs.
	compressionType      string
	sampleForCompression int64
	memtablerep          string
	skipListLookahead    int32

	// Outputs and this project's extensions.
	reportJSON          string
	benchstatOut        string
	profile, profileDir string
	optionsFile         string
	profiles            profilesFlags
	mix                 mixgraphConfig
	timeseries          timeseriesConfig
	uniqueShape         uniqueShapeConfig
	rangeDeletes        rangeDeleteConfig
	sineWrite           sineWriteConfig
	existingKeys        bool // --use_existing_keys (existingkeys.go)
	tailingIterator     bool
	showTableProperties bool
	buildInfo           bool
	printMallocStats    bool
	reportOpenTiming    bool
	// columnFamilyDistribution is --column_family_distribution, read by
	// columnFamilies (columnfamilies.go).
	columnFamilyDistribution string
	// numMultiDB is --num_multi_db: above 1, that many databases in
	// numbered subdirectories of --db (multidb.go).
	numMultiDB int32
	ycsb       ycsbConfig
}

// configFlags lists the flags the driver reads, each with the config field
// it fills (a pointer of the field's type: int, int32, int64, uint32, uint64, bool,
// float64 or string). The flags that set engine options are options.Specs;
// together with parserFlags and noEffectFlags (noeffect.go) they account for
// every flag once (TestEveryFlagAccountedOnce).
var configFlags = []struct {
	name  string
	field func(c *config) any
}{
	{"engine", func(c *config) any { return &c.engine }},
	{"db", func(c *config) any { return &c.db }},
	{"benchmarks", func(c *config) any { return &c.benchmarks }},
	{"num", func(c *config) any { return &c.num }},
	{"reads", func(c *config) any { return &c.reads }},
	{"writes", func(c *config) any { return &c.writes }},
	{"deletes", func(c *config) any { return &c.deletes }},
	{"threads", func(c *config) any { return &c.threads }},
	{"key_size", func(c *config) any { return &c.keySize }},
	{"value_size", func(c *config) any { return &c.valueSize }},
	{"value_size_distribution_type", func(c *config) any { return &c.valueDist }},
	{"value_size_min", func(c *config) any { return &c.valueSizeMin }},
	{"value_size_max", func(c *config) any { return &c.valueSizeMax }},
	{"compression_ratio", func(c *config) any { return &c.compressionRatio }},
	{"batch_size", func(c *config) any { return &c.batchSize }},
	{"sync", func(c *config) any { return &c.sync }},
	{"disable_wal", func(c *config) any { return &c.disableWAL }},
	{"use_existing_db", func(c *config) any { return &c.useExistingDB }},
	{"readonly", func(c *config) any { return &c.readonly }},
	{"histogram", func(c *config) any { return &c.histogram }},
	{"slow_usecs", func(c *config) any { return &c.slowUsecs }},
	{"progress_reports", func(c *config) any { return &c.progressReports }},
	{"stats_interval", func(c *config) any { return &c.statsInterval }},
	{"stats_interval_seconds", func(c *config) any { return &c.statsIntervalSeconds }},
	{"stats_per_interval", func(c *config) any { return &c.statsPerInterval }},
	{"report_interval_seconds", func(c *config) any { return &c.reportInterval }},
	{"report_file", func(c *config) any { return &c.reportFile }},
	{"benchmark_write_rate_limit", func(c *config) any { return &c.writeRateLimit }},
	{"benchmark_read_rate_limit", func(c *config) any { return &c.readRateLimit }},
	{"duration", func(c *config) any { return &c.duration }},
	{"numdistinct", func(c *config) any { return &c.numDistinct }},
	{"stddev", func(c *config) any { return &c.replaceKeysStddev }},
	{"use_single_deletes", func(c *config) any { return &c.useSingleDeletes }},
	{"trace_file", func(c *config) any { return &c.traceFile }},
	{"trace_replay_fast_forward", func(c *config) any { return &c.traceReplayFastForward }},
	{"trace_replay_threads", func(c *config) any { return &c.traceReplayThreads }},
	{"backup_dir", func(c *config) any { return &c.backupDir }},
	{"restore_dir", func(c *config) any { return &c.restoreDir }},
	{"backup_rate_limit", func(c *config) any { return &c.backupRateLimit }},
	{"restore_rate_limit", func(c *config) any { return &c.restoreRateLimit }},
	{"ops_between_duration_checks", func(c *config) any { return &c.opsBetweenDurationChecks }},
	{"user_timestamp_size", func(c *config) any { return &c.userTimestampSize }},
	{"finish_after_writes", func(c *config) any { return &c.finishAfterWrites }},
	{"read_random_exp_range", func(c *config) any { return &c.readRandomExpRange }},
	{"scan_omit_key", func(c *config) any { return &c.scanOmitKey }},
	{"scan_omit_value", func(c *config) any { return &c.scanOmitValue }},
	{"max_scan_distance", func(c *config) any { return &c.maxScanDistance }},
	{"reverse_iterator", func(c *config) any { return &c.reverseIterator }},
	{"seek_nexts", func(c *config) any { return &c.seekNexts }},
	{"seek_missing_prefix", func(c *config) any { return &c.seekMissingPrefix }},
	{"readwritepercent", func(c *config) any { return &c.readWritePercent }},
	{"deletepercent", func(c *config) any { return &c.deletePercent }},
	{"truth_db", func(c *config) any { return &c.truthDB }},
	{"compact_target_level", func(c *config) any { return &c.compactTargetLevel }},
	{"multiread_stride", func(c *config) any { return &c.multireadStride }},
	{"confidence_interval_only", func(c *config) any { return &c.confidenceIntervalOnly }},
	{"report_bench_start_time", func(c *config) any { return &c.reportBenchStartTime }},
	{"keys_per_prefix", func(c *config) any { return &c.keysPerPrefix }},
	{"prefix_size", func(c *config) any { return &c.prefixSize }},
	{"statistics", func(c *config) any { return &c.statistics }},
	{"statistics_string", func(c *config) any { return &c.statisticsString }},
	{"perf_level", func(c *config) any { return &c.perfLevel }},
	{"disable_auto_compactions", func(c *config) any { return &c.disableAutoCompactions }},
	{"merge_operator", func(c *config) any { return &c.mergeOperator }},
	{"transaction_db", func(c *config) any { return &c.transactions.pessimistic }},
	{"optimistic_transaction_db", func(c *config) any { return &c.transactions.optimistic }},
	{"transaction_sets", func(c *config) any { return &c.transactions.sets }},
	{"transaction_lock_timeout", func(c *config) any { return &c.transactions.lockTimeoutMs }},
	{"transaction_set_snapshot", func(c *config) any { return &c.transactions.setSnapshot }},
	{"merge_keys", func(c *config) any { return &c.mergeKeys }},
	{"mergereadpercent", func(c *config) any { return &c.mergeReadPercent }},
	{"seed", func(c *config) any { return &c.seed }},
	{"compression_type", func(c *config) any { return &c.compressionType }},
	{"sample_for_compression", func(c *config) any { return &c.sampleForCompression }},
	{"memtablerep", func(c *config) any { return &c.memtablerep }},
	{"skip_list_lookahead", func(c *config) any { return &c.skipListLookahead }},
	{"report_json", func(c *config) any { return &c.reportJSON }},
	{"benchstat_out", func(c *config) any { return &c.benchstatOut }},
	{"profile", func(c *config) any { return &c.profile }},
	{"profile_dir", func(c *config) any { return &c.profileDir }},
	{"options_file", func(c *config) any { return &c.optionsFile }},
	{"profiles_query_limit", func(c *config) any { return &c.profiles.queryLimit }},
	{"profiles_seed", func(c *config) any { return &c.profiles.seed }},
	{"profiles_queries", func(c *config) any { return &c.profiles.queries }},
	{"profiles_full_compact", func(c *config) any { return &c.profiles.fullCompact }},
	{"overwrite_probability", func(c *config) any { return &c.uniqueShape.overwriteProbability }},
	{"overwrite_window_size", func(c *config) any { return &c.uniqueShape.overwriteWindow }},
	{"disposable_entries_delete_delay", func(c *config) any { return &c.uniqueShape.disposableDelayUs }},
	{"disposable_entries_batch_size", func(c *config) any { return &c.uniqueShape.disposableBatch }},
	{"disposable_entries_value_size", func(c *config) any { return &c.uniqueShape.disposableValueSize }},
	{"persistent_entries_batch_size", func(c *config) any { return &c.uniqueShape.persistentBatch }},
	{"persistent_entries_value_size", func(c *config) any { return &c.uniqueShape.persistentValueSize }},
	{"show_table_properties", func(c *config) any { return &c.showTableProperties }},
	{"use_tailing_iterator", func(c *config) any { return &c.tailingIterator }},
	{"use_existing_keys", func(c *config) any { return &c.existingKeys }},
	{"build_info", func(c *config) any { return &c.buildInfo }},
	{"print_malloc_stats", func(c *config) any { return &c.printMallocStats }},
	{"report_open_timing", func(c *config) any { return &c.reportOpenTiming }},
	{"column_family_distribution", func(c *config) any { return &c.columnFamilyDistribution }},
	{"num_multi_db", func(c *config) any { return &c.numMultiDB }},
	{"sine_write_rate", func(c *config) any { return &c.sineWrite.on }},
	{"sine_write_rate_interval_milliseconds", func(c *config) any { return &c.sineWrite.intervalMs }},
	{"writes_before_delete_range", func(c *config) any { return &c.rangeDeletes.before }},
	{"writes_per_range_tombstone", func(c *config) any { return &c.rangeDeletes.every }},
	{"range_tombstone_width", func(c *config) any { return &c.rangeDeletes.width }},
	{"max_num_range_tombstones", func(c *config) any { return &c.rangeDeletes.max }},
	{"expand_range_tombstones", func(c *config) any { return &c.rangeDeletes.expand }},
	{"recordcount", func(c *config) any { return &c.ycsb.recordCount }},
	{"operationcount", func(c *config) any { return &c.ycsb.operationCount }},
	{"readproportion", func(c *config) any { return &c.ycsb.readProp }},
	{"updateproportion", func(c *config) any { return &c.ycsb.updateProp }},
	{"insertproportion", func(c *config) any { return &c.ycsb.insertProp }},
	{"scanproportion", func(c *config) any { return &c.ycsb.scanProp }},
	{"readmodifywriteproportion", func(c *config) any { return &c.ycsb.rmwProp }},
	{"requestdistribution", func(c *config) any { return &c.ycsb.requestDistribution }},
	{"minscanlength", func(c *config) any { return &c.ycsb.minScanLength }},
	{"maxscanlength", func(c *config) any { return &c.ycsb.maxScanLength }},
	{"scanlengthdistribution", func(c *config) any { return &c.ycsb.scanLengthDistribution }},
	{"insertorder", func(c *config) any { return &c.ycsb.insertOrder }},
	{"fieldcount", func(c *config) any { return &c.ycsb.fieldCount }},
	{"fieldlength", func(c *config) any { return &c.ycsb.fieldLength }},
	{"key_id_range", func(c *config) any { return &c.timeseries.keyIDRange }},
	{"time_range", func(c *config) any { return &c.timeseries.timeRange }},
	{"expire_style", func(c *config) any { return &c.timeseries.expireStyle }},
	{"num_deletion_threads", func(c *config) any { return &c.timeseries.deletionThreads }},
	{"mix_get_ratio", func(c *config) any { return &c.mix.getRatio }},
	{"mix_put_ratio", func(c *config) any { return &c.mix.putRatio }},
	{"mix_seek_ratio", func(c *config) any { return &c.mix.seekRatio }},
	{"mix_max_scan_len", func(c *config) any { return &c.mix.maxScanLen }},
	{"mix_max_value_size", func(c *config) any { return &c.mix.maxValueSize }},
	{"sine_mix_rate", func(c *config) any { return &c.mix.sineMixRate }},
	{"sine_mix_rate_interval_milliseconds", func(c *config) any { return &c.mix.sineMixRateIntervalMs }},
	{"sine_mix_rate_noise", func(c *config) any { return &c.mix.sineMixRateNoise }},
	{"sine_a", func(c *config) any { return &c.mix.sineA }},
	{"sine_b", func(c *config) any { return &c.mix.sineB }},
	{"sine_c", func(c *config) any { return &c.mix.sineC }},
	{"sine_d", func(c *config) any { return &c.mix.sineD }},
	{"keyrange_dist_a", func(c *config) any { return &c.mix.keyrangeA }},
	{"keyrange_dist_b", func(c *config) any { return &c.mix.keyrangeB }},
	{"keyrange_dist_c", func(c *config) any { return &c.mix.keyrangeC }},
	{"keyrange_dist_d", func(c *config) any { return &c.mix.keyrangeD }},
	{"keyrange_num", func(c *config) any { return &c.mix.keyrangeNum }},
	{"key_dist_a", func(c *config) any { return &c.mix.keyDistA }},
	{"key_dist_b", func(c *config) any { return &c.mix.keyDistB }},
	{"value_theta", func(c *config) any { return &c.mix.valueTheta }},
	{"value_k", func(c *config) any { return &c.mix.valueK }},
	{"value_sigma", func(c *config) any { return &c.mix.valueSig }},
	{"iter_theta", func(c *config) any { return &c.mix.iterTheta }},
	{"iter_k", func(c *config) any { return &c.mix.iterK }},
	{"iter_sigma", func(c *config) any { return &c.mix.iterSig }},
}

// parserFlags are read by the flag parser itself (internal/gflags): the
// flag sources and gflags' own help and completion flags.
var parserFlags = setOf("flagfile", "undefok", "fromenv", "tryfromenv", "help", "helpfull",
	"helpmatch", "helpon", "helppackage", "helpshort", "helpxml", "version",
	"tab_completion_columns", "tab_completion_word")

// driverFlags are the names of configFlags.
var driverFlags = func() map[string]bool {
	m := make(map[string]bool, len(configFlags))
	for _, cf := range configFlags {
		m[cf.name] = true
	}
	return m
}()

// readConfigFlags fills c from the parsed flags, through configFlags.
func readConfigFlags(fs *gflags.FlagSet, c *config) error {
	for _, cf := range configFlags {
		fl := fs.Lookup(cf.name)
		if fl == nil {
			return fmt.Errorf("internal error: flag --%s is not registered", cf.name)
		}
		if err := setFromText(cf.field(c), fl.Value()); err != nil {
			return fmt.Errorf("internal error: --%s: %v", cf.name, err)
		}
	}
	return nil
}

// setFromText stores a flag's value text (gflags' spelling) through p.
func setFromText(p any, text string) error {
	var err error
	switch p := p.(type) {
	case *string:
		*p = text
	case *bool:
		*p, err = strconv.ParseBool(text)
	case *float64:
		*p, err = strconv.ParseFloat(text, 64)
	case *uint64:
		*p, err = strconv.ParseUint(text, 10, 64)
	case *uint32:
		var v uint64
		v, err = strconv.ParseUint(text, 10, 32)
		*p = uint32(v)
	case *int64:
		*p, err = strconv.ParseInt(text, 10, 64)
	case *int32:
		var n int64
		n, err = strconv.ParseInt(text, 10, 32)
		*p = int32(n)
	case *int:
		var n int64
		n, err = strconv.ParseInt(text, 10, 64)
		*p = int(n)
	default:
		err = fmt.Errorf("unsupported field type %T", p)
	}
	return err
}

// compressionNames maps --compression_type spellings to the header names.
var compressionNames = map[string]string{
	"none": "NoCompression", "snappy": "Snappy", "zlib": "Zlib", "bzip2": "BZip2",
	"lz4": "LZ4", "lz4hc": "LZ4HC", "xpress": "Xpress", "zstd": "ZSTD",
}

// makeConfig applies db_bench's start-up rules to the parsed flags, with the
// checks db_bench makes before its "Set seed" line (checkAfterSeed has the
// rest). Errors carry db_bench's own words; toStdout marks the ones it prints
// on stdout.
func makeConfig(fs *gflags.FlagSet) (c config, toStdout bool, err error) {
	if err := readConfigFlags(fs, &c); err != nil {
		return c, false, err
	}
	// A read-only run opens the existing database.
	c.useExistingDB = c.useExistingDB || c.readonly
	c.valueDistName = c.valueDist
	statisticsFlag := c.statistics
	c.statistics = c.statistics || c.statisticsString != ""
	if c.statsIntervalSeconds > 0 {
		c.statsInterval = 1000
	}
	if c.writes < 0 && c.reads < 0 {
		c.readwrites = c.num
	} else if c.writes > c.reads {
		c.readwrites = c.writes
	} else {
		c.readwrites = c.reads
	}
	if c.db == "" {
		base := os.Getenv("TEST_TMPDIR")
		if base == "" {
			base = fmt.Sprintf("/tmp/rocksdbtest-%d", os.Geteuid())
		}
		if err := mkdirDurable(base); err != nil {
			return c, false, fmt.Errorf("cannot create %s: %v", base, err)
		}
		c.db = base + "/dbbench"
	}
	// db_bench's defaults of the backup paths, under the DB.
	if c.backupDir == "" {
		c.backupDir = c.db + "/backup"
	}
	if c.restoreDir == "" {
		c.restoreDir = c.db + "/restore"
	}
	if statisticsFlag && c.statisticsString != "" {
		return c, false, fmt.Errorf("Cannot provide both --statistics and --statistics_string.")
	}
	for _, name := range []string{"compression_type", "wal_compression", "compressed_secondary_cache_compression_type"} {
		ct := fs.Lookup(name).Value()
		if _, ok := compressionNames[strings.ToLower(ct)]; !ok {
			return c, false, fmt.Errorf("Cannot parse compression type '%s'", ct)
		}
	}
	return c, false, nil
}

// errNoNewline is an error db_bench prints without a trailing newline.
type errNoNewline struct{ msg string }

func (e errNoNewline) Error() string { return e.msg }

// makeOptions turns the flags into engine options, through options.Specs;
// the options whose flags the user set away from their defaults are marked
// in options.Explicit so engines can warn about the ones they cannot
// honour.
func makeOptions(fs *gflags.FlagSet) (*options.Options, error) {
	o := options.Default()
	for i := range options.Specs {
		s := &options.Specs[i]
		if s.Flag == "" {
			continue
		}
		fl := fs.Lookup(s.Flag)
		if fl == nil {
			return nil, fmt.Errorf("internal error: option flag --%s is not registered", s.Flag)
		}
		if err := options.ApplyFlag(o, s.Flag, fl.Value(), fl.IsChanged()); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// openOptionsFile applies --options_file to o, as db_bench's first Open
// does; without an options file it runs the flag checks of that Open
// instead. The error, if any, is what that Open reports; unmapped lists
// the file's options that only an engine applying options by name uses.
func openOptionsFile(f *flags.Flags, o *options.Options) (unmapped []string, err error) {
	if f.OptionsFile == "" {
		return nil, checkAtOpen(f)
	}
	// Open prints only the "from the specified file" line, even when
	// loading fails.
	o.OptionsFile = f.OptionsFile
	return applyOptionsFile(o, f.OptionsFile)
}
