// Package dbbench is the db_bench driver: it parses db_bench's command line
// (gflags syntax, every db_bench 7.8.3 flag and default), generates the same
// key and value streams as C++ db_bench for the same --seed, runs the
// benchmarks of --benchmarks against an engine.DB, and prints db_bench's
// output byte for byte apart from timings and engine-specific lines.
//
// Contract: Main never panics on bad input and never calls os.Exit; it
// returns db_bench's exit code (0, or 1 with db_bench's message on stderr).
// Engine code lives behind engine.DB; nothing here imports an engine's
// internals.
package dbbench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"time"

	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/buildinfo"
	"github.com/godbbench/godbbench/internal/clock"
	"github.com/godbbench/godbbench/internal/gflags"
)

// Version is the db_bench version this driver is compatible with.
const Version = "7.8.3"

// Main runs db_bench with args (without the program name).
func Main(args []string, stdout, stderr io.Writer) int {
	fs := gflags.NewFlagSet("db_bench", Version)
	// C++'s line stays first for scripts that read it; which godbbench
	// this is follows.
	fs.SetVersionDetail("godbbench version " + buildinfo.Describe() + "\n")
	fs.SetOutput(stdout, stderr)
	f := flags.Register(fs)
	fs.Lookup("benchmarks").Help += "." + benchmarkCatalogue()
	if _, err := fs.Parse(args); err != nil {
		var ee *gflags.ExitError
		if errors.As(err, &ee) {
			return ee.Code
		}
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	errw := &lockedWriter{w: stderr}

	cfg, toStdout, err := makeConfig(fs)
	if err == nil {
		err = checkFlagLimits(fs)
	}
	if err != nil {
		printStartupError(out, errw, err, toStdout)
		return 1
	}
	if cfg.histogram {
		// Latencies are read from the time stamp counter once it is
		// calibrated (10 ms, once per process; internal/clock).
		clock.Calibrate()
	}
	if cfg.buildInfo {
		// As with --version, nothing else is done.
		fmt.Fprint(out, buildInfoText(engine.Names()))
		return 0
	}
	var seedBase int64
	if cfg.seed == 0 {
		seedBase = time.Now().UnixMicro()
		fmt.Fprintf(out, "Set seed to %d because --seed was 0\n", seedBase)
	} else {
		seedBase = cfg.seed
	}
	if toStdout, err := checkAfterSeed(f, &cfg); err != nil {
		printStartupError(out, errw, err, toStdout)
		return 1
	}
	explicit := map[string]string{}
	fs.Visit(func(name, value string) { explicit[name] = value })
	warnIgnoredFlags(errw, fs)
	if err := refuseFlags(fs); err != nil {
		fmt.Fprintf(errw, "%s\n", err)
		return 1
	}
	opts, err := makeOptions(fs)
	if err != nil {
		fmt.Fprintf(errw, "%s\n", err)
		return 1
	}
	opts.KeySize = cfg.keySize
	unmapped, openErr := openOptionsFile(f, opts)
	opener, err := engine.Lookup(cfg.engine)
	if err != nil {
		fmt.Fprintf(errw, "%s\n", err)
		return 1
	}
	releaseUnusedLibraries(opener.Info().Name)
	opener = shareStatistics(opener)
	prof, err := newProfiler(cfg.profile, cfg.profileDir)
	if err != nil {
		fmt.Fprintf(errw, "%s\n", err)
		return 1
	}
	defer applyGCPercent(opener.Info(), os.Getenv)()
	r := &runner{cfg: cfg, out: out, errw: errw, opener: opener, opts: opts, prof: prof, openErr: openErr}
	r.keys = KeyGen{keySize: cfg.keySize, prefixSize: cfg.prefixSize, keysPerPrefix: cfg.keysPerPrefix, num: cfg.num}

	r.seedBase = seedBase
	r.valueData = buildValueData(cfg.compressionRatio, max(cfg.valueSizeMax, cfg.valueSize, 100*1000))
	if r.json, err = openJSONReporter(cfg.reportJSON, opener.Info().Name, explicit); err != nil {
		fmt.Fprintf(errw, "%s\n", err)
		return 1
	}
	defer r.json.close()
	r.foldReads = r.json != nil
	if r.benchstat, err = openBenchstatReporter(cfg.benchstatOut, opener.Info().Name); err != nil {
		fmt.Fprintf(errw, "%s\n", err)
		return 1
	}
	defer func() {
		if err := r.benchstat.close(); err != nil {
			fmt.Fprintf(errw, "--benchstat_out: %v\n", err)
		}
	}()

	// A run whose open is bound to fail destroys nothing first, where C++
	// db_bench deletes the database and then reports the bad options.
	if !cfg.useExistingDB && !existsNotDir(cfg.db) && !r.openWillFail() {
		r.destroyFailed(opener.Destroy(cfg.db, opts))
	}
	// db_bench prints the environment block with the header, after the
	// first Open succeeded; an Open failure shows only "open error". The
	// engine's warnings about options of that first Open are held back to
	// follow the environment block.
	r.openLog = newHeldWriter(errw)
	if len(unmapped) > 0 && opener.Info().Name != "rocksdb" {
		// RocksDB applies these by name; other engines have no setting
		// for them, which is said once.
		fmt.Fprintf(r.openLog, "WARNING: engine %s ignores %d options of %s that it has no setting for: %s\n",
			opener.Info().Name, len(unmapped), opts.OptionsFile, strings.Join(unmapped, ", "))
	}
	err = r.open()
	if err != nil {
		return 1
	}
	if opts.UseKeepFilter {
		fmt.Fprintf(out, "A noop compaction filter is used\n")
	}
	printEnvironment(errw, opener.Info().VersionLine, time.Now())
	r.openLog.release()
	defer func() {
		if err := r.closeDBs(); err != nil {
			fmt.Fprintf(errw, "close error: %v\n", err)
		}
	}()
	r.printHeader(compressionWarnings(opener.Info().Name, cfg.compressionType))
	out.Flush()
	if err := r.runList(); err != nil {
		return 1
	}
	if cfg.statistics {
		r.printStatistics()
	}
	if opts.SimCacheSize >= 0 {
		r.printSimCache()
	}
	if opts.UseSecondaryDB {
		if v, ok := r.db.Property(secondaryUpdatesProperty); ok {
			r.outf("Secondary instance updated  %s times.\n", v)
		}
	}
	if cfg.printMallocStats {
		r.printMallocStats()
	}
	out.Flush()
	if err := r.closeDBs(); err != nil {
		fmt.Fprintf(errw, "close error: %v\n", err)
		return 1
	}
	return 0
}

// existsNotDir reports whether path exists and is not a directory (a file
// given as --db): db_bench's DestroyDB leaves it alone and its Open fails.
func existsNotDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// printStartupError prints a start-up check's message where db_bench prints
// it (stdout or stderr), with a newline unless db_bench omits it.
func printStartupError(out *bufio.Writer, errw io.Writer, err error, toStdout bool) {
	w := errw
	if toStdout {
		w = out
	}
	if _, ok := err.(errNoNewline); ok {
		fmt.Fprint(w, err.Error())
	} else {
		fmt.Fprintf(w, "%s\n", err)
	}
}

// openWillFail reports whether open fails before any engine call: a bad
// --options_file or flag checked at open, a hash memtable without a
// prefix, or a compression no engine has. (Another engine's database is
// refused by the engine's own Destroy.)
func (r *runner) openWillFail() bool {
	hashWithoutPrefix := r.opts.OptionsFile == "" && checkHashMemtable(r.cfg.memtablerep, r.cfg.prefixSize) != nil
	return r.openErr != nil || r.opts.CompressionType == "xpress" || hashWithoutPrefix
}

// open opens the engine, printing db_bench's Open messages; a failure prints
// "open error: ..." on stderr.
func (r *runner) open() error {
	r.applySineWriteRate()
	// Open failures go to stderr while the "Initializing" lines still sit in
	// the stdout buffer, so a 2>&1 capture shows the error first, as with
	// db_bench, which exits before flushing stdout.
	if r.opts.OptionsFile != "" {
		r.outf("Initializing RocksDB Options from the specified file\n")
	} else {
		r.outf("Initializing RocksDB Options from the specified file\n")
		r.outf("Initializing RocksDB Options from command-line flags\n")
		if err := checkHashMemtable(r.cfg.memtablerep, r.cfg.prefixSize); err != nil {
			r.errf("%s\n", err)
			return errExit{"hash memtable without a prefix"}
		}
		r.outf("Integrated BlobDB: blob cache disabled\n")
	}
	if r.openErr != nil {
		r.errf("%s\n", r.openErr)
		return errExit{"open failed"}
	}
	if r.opts.CompressionType == "xpress" {
		// Xpress exists only in Windows builds of RocksDB; db_bench on any
		// other system fails its Open with this status.
		r.errf("open error: Invalid argument: Compression type Xpress is not linked with the binary.\n")
		return errExit{"xpress"}
	}
	if existsNotDir(r.cfg.db) {
		r.errf("open error: IO error: `%s' exists but is not a directory\n", r.cfg.db)
		return errExit{"db path is not a directory"}
	}
	// A read-only open creates nothing: a missing --db is the engine's
	// open error, as with db_bench on RocksDB.
	if !r.opts.ReadOnly {
		if err := mkdirDurable(r.cfg.db); err != nil {
			r.errf("open error: %v\n", err)
			return err
		}
	}
	log := io.Writer(r.errw)
	if r.openLog != nil {
		log = r.openLog
	}
	if r.severalDBs() {
		if err := r.openSeveral(log); err != nil {
			return err
		}
	} else if err := r.openOne(log); err != nil {
		return err
	}
	if _, ok := r.db.(engine.ThreadContext); !ok && r.cfg.perfLevel > 1 && !r.warnedPerfLevel {
		fmt.Fprintf(log, "WARNING: --perf_level=%d has no effect here: the %s engine keeps no perf context\n",
			r.cfg.perfLevel, r.opener.Info().Name)
		r.warnedPerfLevel = true
	}
	// Warnings are reported once per process, not at every fresh-DB re-open.
	r.opts.Explicit = map[string]bool{}
	if r.cfg.existingKeys {
		if err := r.loadExistingKeys(); err != nil {
			r.errf("%v\n", err)
			if cerr := r.closeDBs(); cerr != nil {
				r.errf("close error: %v\n", cerr)
			}
			return errExit{"use_existing_keys"}
		}
	}
	return nil
}

// openOne opens the one database at --db with its column families.
func (r *runner) openOne(log io.Writer) error {
	openStart := time.Now()
	db, err := r.opener.Open(r.cfg.db, r.opts, log)
	r.reportOpenTime(openStart)
	if err != nil {
		if r.openLog != nil {
			r.openLog.release()
		}
		r.errf("open error: %v\n", err)
		return err
	}
	r.db = db
	if r.families, err = r.newColumnFamilies(db); err != nil {
		r.errf("%v\n", err)
		if cerr := r.db.Close(); cerr != nil {
			r.errf("close error: %v\n", cerr)
		}
		r.db = nil
		return errExit{"column families"}
	}
	return nil
}

// reportOpenTime prints --report_open_timing's line for an Open that
// started at start, as db_bench's OpenDb does after each Open.
func (r *runner) reportOpenTime(start time.Time) {
	if r.cfg.reportOpenTiming {
		r.outf("OpenDb:     %s milliseconds\n", strconv.FormatFloat(float64(time.Since(start).Nanoseconds())/1e6, 'g', 6, 64))
	}
}

// reopenFresh closes, destroys and re-opens the DB for a fresh-DB benchmark.
func (r *runner) reopenFresh() error {
	if err := r.closeDBs(); err != nil {
		r.out.Flush()
		r.errf("close error: %v\n", err)
		return errExit{"close failed"}
	}
	// A file the user named as --db is left alone; open reports it.
	if r.severalDBs() {
		r.destroySeveral()
	} else if !existsNotDir(r.cfg.db) {
		r.destroyFailed(r.opener.Destroy(r.cfg.db, r.opts))
	}
	if err := r.open(); err != nil {
		return errExit{"open failed"}
	}
	return nil
}

// destroyFailed makes the Open that follows a refused Destroy fail with the
// refusal. db_bench ignores DestroyDB's status, but what refuses DestroyDB
// (a DB another process holds: "IO error: While lock file: <db>/LOCK:
// Resource temporarily unavailable"; a --wal_dir that is a file) makes its
// Open fail with the same words right after, as "open error: ...", exit 1,
// after the Open's "Initializing" lines. Going on would open a DB that was
// not destroyed, or only half.
func (r *runner) destroyFailed(err error) {
	if err != nil && r.openErr == nil {
		r.openErr = fmt.Errorf("open error: %w", err)
	}
}

// printSimCache prints the simulated cache's report (--simcache_size) as
// db_bench does, from the engine that keeps one (rocksdb; the others
// refuse the flag at open).
func (r *runner) printSimCache() {
	if v, ok := r.db.Property(simCacheProperty); ok {
		r.outf("SIMULATOR CACHE STATISTICS:\n%s\n", v)
	}
}

// simCacheProperty and secondaryUpdatesProperty are the rocksdb engine's
// properties of the simulated cache's report and of a secondary
// instance's catch-up count (rocksdb.SimCacheProperty and
// rocksdb.SecondaryUpdatesProperty, which builds without the rocksdb tag
// cannot name).
const (
	simCacheProperty         = "godbbench.simcache-statistics"
	secondaryUpdatesProperty = "godbbench.secondary-updates"
)
