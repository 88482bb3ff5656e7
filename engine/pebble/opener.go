package pebble

import (
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

const modulePath = "github.com/cockroachdb/pebble/v2"

func init() {
	engine.Register("pebble", Opener{})
}

// Opener opens Pebble databases; it is registered as "pebble".
type Opener struct{}

var _ engine.Opener = Opener{}

// Info names the engine and the Pebble version linked into the binary.
func (Opener) Info() engine.Info {
	v := moduleVersion()
	return engine.Info{
		Name:    "pebble",
		Version: v,
		// The value starts at column 12, as in db_bench's "RocksDB:    version 7.8.3".
		VersionLine: fmt.Sprintf("%-12sversion %s", "Pebble:", v),
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

// Open opens (creating if missing) the Pebble database in dir. Options
// Pebble cannot honour are reported on warn; warn also receives Pebble's
// error log lines for the life of the database.
func (Opener) Open(dir string, opts *options.Options, warn io.Writer) (engine.DB, error) {
	if opts == nil {
		opts = options.Default()
	}
	if warn == nil {
		warn = io.Discard
	}
	lg := &logger{w: warn}
	cfg, err := buildConfig(opts, warn, lg)
	if err != nil {
		return nil, err
	}
	d := &DB{
		logger:          lg,
		disableWAL:      opts.DisableWAL,
		autoCompactions: !opts.DisableAutoCompactions,
		concurrency:     cfg.concurrency,
		opened:          time.Now(),
	}
	listener := &pebble.EventListener{}
	d.stalls.listen(listener)
	cfg.opts.EventListener = listener

	db, err := pebble.Open(dir, cfg.opts)
	if err != nil {
		cfg.cache.Unref()
		return nil, fmt.Errorf("pebble: open %s: %w", dir, err)
	}
	d.db = db
	if cfg.cacheBudget > 0 {
		d.budget = newCacheBudget(cfg.cache, cfg.cacheBudget)
		d.budget.start(db)
	}
	// The DB holds its own reference to the cache; drop the one NewCache
	// gave us. The budget uses the cache only while the DB is open.
	cfg.cache.Unref()
	d.lastStats = d.snapshot(db.Metrics())
	d.lastStats.at = d.opened
	return d, nil
}

// Destroy deletes the Pebble database in dir and its WAL files (see
// destroy.go): only files Pebble names, after taking its LOCK.
func (Opener) Destroy(dir string, opts *options.Options) error { return Destroy(dir, opts) }
