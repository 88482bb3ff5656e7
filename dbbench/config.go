package dbbench

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/options"
)

// config is the driver's view of the flags, in the types the hot loops use.
type config struct {
	engine                   string
	db                       string
	benchmarks               string
	num, reads, writes       int64
	deletes, readwrites      int64
	threads                  int32
	keySize, valueSize       int
	valueDist                string
	valueSizeMin             int
	valueSizeMax             int
	compressionRatio         float64
	batchSize                int64
	sync, disableWAL         bool
	useExistingDB            bool
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
	compactTargetLevel       int32
	multireadStride          int64
	confidenceIntervalOnly   bool
	reportBenchStartTime     bool
	keysPerPrefix            int64
	prefixSize               int
	statistics               bool
	perfLevel                int // --perf_level, handed to engine.ThreadContext
	disableAutoCompactions   bool
	mergeOperator            string
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
func makeConfig(f *flags.Flags) (c config, toStdout bool, err error) {
	c = config{
		engine:                   f.Engine,
		db:                       f.Db,
		benchmarks:               f.Benchmarks,
		num:                      f.Num,
		reads:                    f.Reads,
		writes:                   f.Writes,
		deletes:                  f.Deletes,
		threads:                  f.Threads,
		keySize:                  int(f.KeySize),
		valueSize:                int(f.ValueSize),
		valueDist:                f.ValueSizeDistributionType,
		valueSizeMin:             int(f.ValueSizeMin),
		valueSizeMax:             int(f.ValueSizeMax),
		compressionRatio:         f.CompressionRatio,
		batchSize:                f.BatchSize,
		sync:                     f.Sync,
		disableWAL:               f.DisableWal,
		useExistingDB:            f.UseExistingDb || f.Readonly,
		histogram:                f.Histogram,
		slowUsecs:                f.SlowUsecs,
		progressReports:          f.ProgressReports,
		statsInterval:            f.StatsInterval,
		statsIntervalSeconds:     f.StatsIntervalSeconds,
		statsPerInterval:         f.StatsPerInterval,
		reportInterval:           f.ReportIntervalSeconds,
		reportFile:               f.ReportFile,
		writeRateLimit:           f.BenchmarkWriteRateLimit,
		readRateLimit:            f.BenchmarkReadRateLimit,
		duration:                 f.Duration,
		opsBetweenDurationChecks: f.OpsBetweenDurationChecks,
		userTimestampSize:        int(f.UserTimestampSize),
		finishAfterWrites:        f.FinishAfterWrites,
		readRandomExpRange:       f.ReadRandomExpRange,
		scanOmitKey:              f.ScanOmitKey,
		scanOmitValue:            f.ScanOmitValue,
		maxScanDistance:          f.MaxScanDistance,
		reverseIterator:          f.ReverseIterator,
		seekNexts:                f.SeekNexts,
		seekMissingPrefix:        f.SeekMissingPrefix,
		readWritePercent:         f.Readwritepercent,
		compactTargetLevel:       f.CompactTargetLevel,
		multireadStride:          f.MultireadStride,
		confidenceIntervalOnly:   f.ConfidenceIntervalOnly,
		reportBenchStartTime:     f.ReportBenchStartTime,
		keysPerPrefix:            f.KeysPerPrefix,
		prefixSize:               int(f.PrefixSize),
		statistics:               f.Statistics || f.StatisticsString != "",
		perfLevel:                int(f.PerfLevel),
		disableAutoCompactions:   f.DisableAutoCompactions,
		mergeOperator:            f.MergeOperator,
	}
	if c.statsIntervalSeconds > 0 {
		c.statsInterval = 1000
	}
	if f.Writes < 0 && f.Reads < 0 {
		c.readwrites = f.Num
	} else if f.Writes > f.Reads {
		c.readwrites = f.Writes
	} else {
		c.readwrites = f.Reads
	}
	if c.db == "" {
		base := os.Getenv("TEST_TMPDIR")
		if base == "" {
			base = fmt.Sprintf("/tmp/rocksdbtest-%d", os.Geteuid())
		}
		if err := os.MkdirAll(base, 0o755); err != nil {
			return c, false, fmt.Errorf("cannot create %s: %v", base, err)
		}
		c.db = base + "/dbbench"
	}
	if f.Statistics && f.StatisticsString != "" {
		return c, false, fmt.Errorf("Cannot provide both --statistics and --statistics_string.")
	}
	for _, ct := range []string{f.CompressionType, f.WalCompression, f.CompressedSecondaryCacheCompressionType} {
		if _, ok := compressionNames[strings.ToLower(ct)]; !ok {
			return c, false, fmt.Errorf("Cannot parse compression type '%s'", ct)
		}
	}
	return c, false, nil
}

// errNoNewline is an error db_bench prints without a trailing newline.
type errNoNewline struct{ msg string }

func (e errNoNewline) Error() string { return e.msg }

// makeOptions turns the flags into engine options. explicit lists the flags
// the user set, which become options.Explicit so engines can warn about the
// ones they cannot honour.
func makeOptions(f *flags.Flags, c *config, explicit map[string]string) (*options.Options, error) {
	o := options.Default()
	o.WriteBufferSize = f.WriteBufferSize
	o.MaxWriteBufferNumber = int(f.MaxWriteBufferNumber)
	o.MinWriteBufferNumberToMerge = int(f.MinWriteBufferNumberToMerge)
	o.DBWriteBufferSize = f.DbWriteBufferSize
	o.ArenaBlockSize = f.ArenaBlockSize
	o.AllowConcurrentMemtableWrite = f.AllowConcurrentMemtableWrite
	o.EnablePipelinedWrite = f.EnablePipelinedWrite
	o.Memtablerep = f.Memtablerep
	o.SkipListLookahead = int(f.SkipListLookahead)
	o.MemtableBloomSizeRatio = f.MemtableBloomSizeRatio
	o.NumLevels = int(f.NumLevels)
	o.Level0FileNumCompactionTrigger = int(f.Level0FileNumCompactionTrigger)
	o.Level0SlowdownWritesTrigger = int(f.Level0SlowdownWritesTrigger)
	o.Level0StopWritesTrigger = int(f.Level0StopWritesTrigger)
	o.TargetFileSizeBase = f.TargetFileSizeBase
	o.TargetFileSizeMultiplier = int(f.TargetFileSizeMultiplier)
	o.MaxBytesForLevelBase = f.MaxBytesForLevelBase
	o.MaxBytesForLevelMultiplier = f.MaxBytesForLevelMultiplier
	if s := f.MaxBytesForLevelMultiplierAdditional; s != "" {
		// A wrong count is reported at open (checkAtOpen), as db_bench does.
		parts := strings.Split(s, ",")
		for _, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return nil, fmt.Errorf("bad --max_bytes_for_level_multiplier_additional item '%s'", p)
			}
			o.MaxBytesForLevelMultiplierAdditional = append(o.MaxBytesForLevelMultiplierAdditional, n)
		}
		if len(parts) != int(f.NumLevels) {
			o.MaxBytesForLevelMultiplierAdditional = nil
		}
	}
	o.LevelCompactionDynamicLevelBytes = f.LevelCompactionDynamicLevelBytes
	o.CompactionStyle = int(f.CompactionStyle)
	o.CompactionPri = int(f.CompactionPri)
	o.DisableAutoCompactions = f.DisableAutoCompactions
	o.MaxCompactionBytes = f.MaxCompactionBytes
	o.SoftPendingCompactionBytesLimit = f.SoftPendingCompactionBytesLimit
	o.HardPendingCompactionBytesLimit = f.HardPendingCompactionBytesLimit
	o.DelayedWriteRate = f.DelayedWriteRate
	o.MaxBackgroundJobs = int(f.MaxBackgroundJobs)
	o.MaxBackgroundCompactions = int(f.MaxBackgroundCompactions)
	o.MaxBackgroundFlushes = int(f.MaxBackgroundFlushes)
	o.Subcompactions = f.Subcompactions
	o.CompressionType = strings.ToLower(f.CompressionType)
	o.CompressionLevel = int(f.CompressionLevel)
	o.MinLevelToCompress = int(f.MinLevelToCompress)
	o.CompressionMaxDictBytes = int(f.CompressionMaxDictBytes)
	o.CacheSize = f.CacheSize
	o.CacheNumShardBits = int(f.CacheNumshardbits)
	o.CacheType = f.CacheType
	o.CacheIndexAndFilterBlocks = f.CacheIndexAndFilterBlocks
	o.PinL0FilterAndIndexBlocksInCache = f.PinL0FilterAndIndexBlocksInCache
	o.BlockSize = int(f.BlockSize)
	o.BlockRestartInterval = int(f.BlockRestartInterval)
	o.IndexBlockRestartInterval = int(f.IndexBlockRestartInterval)
	o.BloomBits = int(f.BloomBits)
	o.WholeKeyFiltering = f.WholeKeyFiltering
	o.FormatVersion = int(f.FormatVersion)
	o.ChecksumType = int(f.ChecksumType)
	o.OpenFiles = int(f.OpenFiles)
	o.TableCacheNumShardBits = int(f.TableCacheNumshardbits)
	o.OptimizeFiltersForHits = f.OptimizeFiltersForHits
	o.PrefixSize = int(f.PrefixSize)
	o.UseDirectReads = f.UseDirectReads
	o.UseDirectIOForFlushAndCompaction = f.UseDirectIoForFlushAndCompaction
	o.MmapRead = f.MmapRead
	o.MmapWrite = f.MmapWrite
	o.BytesPerSync = f.BytesPerSync
	o.WALBytesPerSync = f.WalBytesPerSync
	o.UseFsync = f.UseFsync
	o.CompactionReadaheadSize = int(f.CompactionReadaheadSize)
	o.VerifyChecksum = f.VerifyChecksum
	o.WALDir = f.WalDir
	o.MaxTotalWALSize = f.MaxTotalWalSize
	o.DisableWAL = f.DisableWal
	o.Sync = f.Sync
	o.ParanoidChecks = f.ParanoidChecks
	o.WALRecoveryMode = int(f.WalRecoveryMode)
	o.AdviseRandomOnOpen = f.AdviseRandomOnOpen
	o.ReadOnly = f.Readonly
	o.Statistics = c.statistics
	o.StatsLevel = int(f.StatsLevel)
	for name := range explicit {
		o.Explicit[flagToOption(name)] = true
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

// flagToOption maps the one db_bench flag whose RocksDB option has another
// name (open_files is max_open_files); the rest share the name.
func flagToOption(flag string) string {
	if flag == "open_files" {
		return "max_open_files"
	}
	return flag
}
