package dbbench

import (
	"bufio"
	"path/filepath"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
	"github.com/godbbench/godbbench/dbbench/profiles"
	"github.com/godbbench/godbbench/engine"
)

// profilesFlags are the --profiles_* extensions.
type profilesFlags struct {
	queryLimit  int
	seed        int32
	queries     int64
	fullCompact bool
}

// runProfiles runs ZoneTree's profile-store workload (--benchmarks=profiles)
// with --num profiles. Its five stores are five engine instances in
// sub-directories of --db, so the main DB is closed and destroyed first and
// re-opened empty afterwards. With --use_existing_db (which --readonly
// sets) it is skipped as db_bench skips the benchmarks that need a fresh
// DB, and nothing is destroyed.
func (r *runner) runProfiles() error {
	if r.cfg.useExistingDB {
		r.outf("%-12s : skipped (--use_existing_db is true)\n", "profiles")
		return nil
	}
	if r.db != nil {
		if err := r.db.Close(); err != nil {
			r.errf("close error: %v\n", err)
			return errExit{"close failed"}
		}
		r.db = nil
	}
	if err := r.opener.Destroy(r.cfg.db, r.opts); err != nil {
		r.errf("destroy error: %v\n", err)
		return errExit{"destroy failed"}
	}
	r.outf("DB path: [%s]\n", r.cfg.db)
	pf := r.cfg.profiles
	cfg := profiles.Config{
		Profiles:   r.cfg.num,
		Queries:    pf.queries,
		QueryLimit: pf.queryLimit,
		Seed:       pf.seed,
		Threads:    int(r.cfg.threads),
		Dir:        r.cfg.db,
		Open: func(path string) (engine.DB, error) {
			if err := mkdirDurable(path); err != nil {
				return nil, err
			}
			return r.opener.Open(path, r.opts, r.errw)
		},
		Destroy: func(path string) error { return r.opener.Destroy(path, r.opts) },
		Stabilize: func(db engine.DB) error {
			if err := db.Flush(); err != nil {
				return err
			}
			if pf.fullCompact {
				if err := db.Compact(nil, nil, -1); err != nil {
					return err
				}
			}
			return db.WaitForCompactions()
		},
		Out: flushingWriter{r.out},
	}
	results, err := profiles.Run(cfg)
	r.out.Flush()
	if err != nil {
		r.errf("profiles error: %v\n", err)
		return errExit{"profiles failed"}
	}
	for _, p := range results {
		rec := &jsonrecord.Record{Benchmark: p.Name, Ops: p.Ops, Seconds: p.Seconds,
			OpsPerSec: safeDiv(float64(p.Ops), p.Seconds), Bytes: p.Bytes,
			Threads: int(r.cfg.threads), Extra: map[string]any{"profiles": true}}
		if p.Checksum != 0 {
			rec.Checksum = checksumHex(p.Checksum)
		}
		r.json.write(rec)
	}
	// The stores go first, so that Destroy, which removes only the
	// engine's files and then the directory if empty, can remove --db.
	for _, path := range append(profiles.StoreDirs(r.cfg.db), r.cfg.db) {
		if err := r.opener.Destroy(path, r.opts); err != nil {
			r.errf("destroy error: %v\n", err)
			return errExit{"destroy failed"}
		}
	}
	if err := mkdirDurable(filepath.Clean(r.cfg.db)); err != nil {
		return errExit{err.Error()}
	}
	if err := r.open(); err != nil {
		return errExit{"open failed"}
	}
	return nil
}

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func checksumHex(v uint64) string {
	const digits = "0123456789ABCDEF"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

// flushingWriter flushes the buffered stdout after every write, so each
// profiles phase line appears as the phase ends (phases can take minutes).
type flushingWriter struct{ w *bufio.Writer }

func (f flushingWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		err = f.w.Flush()
	}
	return n, err
}
