package pebble

import (
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/fileops"
	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/mergeop"
	"github.com/godbbench/godbbench/options"
)

const modulePath = "github.com/cockroachdb/pebble/v2"

func init() {
	engine.Register("pebble", Opener{})
}

// Opener opens Pebble databases; it is registered as "pebble". The
// registered one gives each database statistics of its own; one made by
// SharingStatistics counts every database it opens in one (statistics.go).
type Opener struct {
	shared *statistics.Shared
}

var _ engine.Opener = Opener{}

// Info names the engine and the Pebble version linked into the binary.
func (Opener) Info() engine.Info {
	v := moduleVersion()
	return engine.Info{
		Name:    "pebble",
		Version: v,
		// The value starts at column 12, as in db_bench's "RocksDB:    version 7.8.3".
		VersionLine: fmt.Sprintf("%-12sversion %s", "Pebble:", v),
		// With the WAL on, every commit waits for Pebble's WAL writer
		// goroutine to write its record (walsync.go).
		ThreadLocking: engine.LockNever,
	}
}

// moduleVersion reads Pebble's module version from the build information,
// or "v2" when the binary carries none (e.g. some test binaries).
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path == modulePath {
				if dep.Replace != nil && dep.Replace.Version != "" {
					return dep.Replace.Version
				}
				if dep.Version != "" && dep.Version != "(devel)" {
					return dep.Version
				}
			}
		}
	}
	return "v2"
}

// Open opens (creating if missing, unless opts.ReadOnly) the Pebble
// database in dir. Options Pebble cannot honour are reported on warn; warn
// also receives Pebble's error log lines for the life of the database.
func (op Opener) Open(dir string, opts *options.Options, warn io.Writer) (engine.DB, error) {
	var fs vfs.FS = vfs.Default
	if opts != nil && opts.ReportFileOperations {
		fs = countingFS{FS: fs, c: &fileops.Process}
	}
	d, err := open(dir, opts, warn, fs, op.shared)
	if err != nil {
		return nil, err // not a nil *DB in a non-nil interface
	}
	return d, nil
}

// open is Open on the file system fs (tests pass one that injects
// faults), counting in shared's statistics (nil: the database's own).
func open(dir string, opts *options.Options, warn io.Writer, fs vfs.FS, shared *statistics.Shared) (*DB, error) {
	if opts == nil {
		opts = options.Default()
	}
	if warn == nil {
		warn = io.Discard
	}
	if err := options.CheckBlockTableFormat(opts, "pebble"); err != nil {
		return nil, err
	}
	op, err := mergeop.Lookup(opts.MergeOperator)
	if err != nil {
		return nil, fmt.Errorf("invalid merge operator[%s]: %w", opts.MergeOperator, err)
	}
	lg := &logger{w: warn}
	cfg, err := buildConfig(opts, warn, lg)
	if err != nil {
		return nil, err
	}
	cfg.opts.Merger = pickMerger(fs, dir, op)
	d := &DB{
		fs:              newFailFS(fs),
		logger:          lg,
		disableWAL:      opts.DisableWAL,
		readOnly:        opts.ReadOnly,
		autoCompactions: !opts.DisableAutoCompactions,
		concurrency:     cfg.concurrency,
		opened:          time.Now(),
		mergeOp:         op,
		prefixSeekLen:   prefixSeekLen(opts),
		maint:           maintenanceState{dir: dir, fileChecksums: opts.FileChecksums(), cache: cfg.cache, cacheBudget: cfg.cacheBudget},
		stats:           shared.Open(opts.Statistics, opts.StatsLevel),
	}
	d.rec = d.stats.Recorder()
	d.wal = &walSyncFS{FS: d.fs}
	cfg.opts.FS = d.wal
	if opts.ReadOnly {
		cfg.opts.FS = readOnlyFS{d.fs}
	}
	listener := &pebble.EventListener{}
	d.stalls.listen(listener)
	// Background errors after a write failure are Pebble reading files
	// that were never stored (failfs.go); the failure itself is reported
	// by the next write and by Close.
	listener.BackgroundError = func(err error) {
		if !d.fs.frozen() {
			lg.backgroundError(err)
		}
	}
	// Pebble's default for on-disk corruption found by a read is
	// Logger.Fatalf, which exits the process with a stack trace; the read
	// that found it returns the corruption error, which is how RocksDB
	// reports it too, so the event itself is left without an action.
	listener.DataCorruption = func(pebble.DataCorruptionInfo) {}
	cfg.opts.EventListener = listener

	keep, err := checkBeforeOpenKeeping(fs, dir, opts.WALDir)
	if err != nil {
		cfg.cache.Unref()
		return nil, err
	}
	if len(keep) > 0 && !opts.ReadOnly {
		cfg.opts.FS = &keepFS{FS: cfg.opts.FS, keep: keep}
	}
	// Pebble's disk-health checks, which Pebble adds only when Options.FS
	// is unset, wrap the engine's file system as they wrapped the default
	// one (same 5 s threshold); the DB stops them after Pebble closes.
	cfg.opts.FS, d.health = vfs.WithDiskHealthChecks(cfg.opts.FS, 5*time.Second, nil,
		func(info vfs.DiskSlowInfo) {
			if slow := listener.DiskSlow; slow != nil {
				slow(info)
			}
		})
	db, err := pebble.Open(dir, cfg.opts)
	if err != nil {
		cfg.cache.Unref()
		d.health.Close()
		if ferr := d.fs.failed(); ferr != nil {
			return nil, ferr
		}
		if opts.ReadOnly {
			return nil, readOnlyOpenError(dir, err)
		}
		return nil, fmt.Errorf("pebble: open %s: %w", dir, err)
	}
	// Open replays the WALs and may flush them; a write that failed then
	// froze the directory (failfs.go), and the open fails with it.
	if err := d.fs.failed(); err != nil {
		db.Close()
		d.health.Close()
		cfg.cache.Unref()
		return nil, err
	}
	d.db = db
	if !opts.ReadOnly {
		writeInfoLog(dir, moduleVersion())
	}
	if cfg.cacheBudget > 0 {
		d.budget = newCacheBudget(cfg.cache, cfg.cacheBudget)
		d.budget.start(db)
	}
	// The DB holds its own reference to the cache; drop the one NewCache
	// gave us. The budget uses the cache only while the DB is open.
	cfg.cache.Unref()
	d.lastStats = d.snapshot(db.Metrics())
	d.lastStats.at = d.opened
	d.metricsSource = d.stats.AddSource(d.setMetricCounts)
	return d, nil
}

// Destroy deletes the Pebble database in dir and its WAL files (see
// destroy.go): only files Pebble names, after taking its LOCK.
func (Opener) Destroy(dir string, opts *options.Options) error { return Destroy(dir, opts) }
