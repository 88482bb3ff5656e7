package dbbench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// dbSlot is one database of --num_multi_db (an entry of db_bench's
// multi_dbs_, a DBWithColumnFamilies): the open database, where it lives
// and the routing of its column families (nil with one family).
type dbSlot struct {
	db       engine.DB
	path     string
	families *columnFamilies
}

// multiDBPath is db_bench's GetPathForMultiple: base, a '/' unless base
// ends in one (or is empty), and the database's number. --db=/x with
// --num_multi_db=3 puts the databases in /x/0, /x/1 and /x/2; a --wal_dir
// is split the same way.
func multiDBPath(base string, i int) string {
	if base != "" && !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base + strconv.Itoa(i)
}

// severalDBs reports whether the run opens --num_multi_db databases:
// db_bench opens one at --db for any --num_multi_db <= 1.
func (r *runner) severalDBs() bool { return r.cfg.numMultiDB > 1 }

// slot returns database i of the open ones (0 with one database) and
// its families.
func (r *runner) slot(i int) (engine.DB, *columnFamilies) {
	if r.multi == nil {
		return r.db, r.families
	}
	return r.multi[i].db, r.multi[i].families
}

// selectSlot is the choice of db_bench's SelectDB(thread): one draw from
// the thread's random numbers, made with one database too, modulo the
// number of databases.
// With several databases the chosen one is also the one whose stats the
// thread's interval dumps print, as db_bench passes it to FinishedOps.
func (r *runner) selectSlot(t *thread) int {
	v := t.rand.Next()
	if r.multi == nil {
		return 0
	}
	i := int(v % uint64(len(r.multi)))
	if !t.stats.intervalPinned {
		t.stats.intervalDB = r.multi[i].db
	}
	return i
}

// singleDB is db_bench's db_.db: the database with one, nil with several
// (db_bench keeps those in multi_dbs_ only).
func (r *runner) singleDB() engine.DB {
	if r.multi != nil {
		return nil
	}
	return r.db
}

// selectDB is db_bench's SelectDBWithCfh(thread): the database of
// selectSlot and its families.
func (r *runner) selectDB(t *thread) (engine.DB, *columnFamilies) {
	return r.slot(r.selectSlot(t))
}

// dbCount is the number of open databases.
func (r *runner) dbCount() int {
	if r.multi == nil {
		return 1
	}
	return len(r.multi)
}

// eachDB calls fn on every open database in order, with its path and
// families, stopping at the first error.
func (r *runner) eachDB(fn func(db engine.DB, path string, families *columnFamilies) error) error {
	if r.multi == nil {
		return fn(r.db, r.cfg.db, r.families)
	}
	for _, s := range r.multi {
		if err := fn(s.db, s.path, s.families); err != nil {
			return err
		}
	}
	return nil
}

// slotOptions returns the options of database i: the run's, with a
// --wal_dir of its own (db_bench's GetPathForMultiple(wal_dir, i)).
func (r *runner) slotOptions(i int) *options.Options {
	o := *r.opts
	if o.WALDir != "" {
		o.WALDir = multiDBPath(r.opts.WALDir, i)
	}
	return &o
}

// openSeveral is db_bench's Open with --num_multi_db > 1: each database
// opened in turn at --db/<i>, with its column families. r.db is the
// first of them, for what the run does on one database only; the
// benchmarks that spread their operations pick one per operation
// (selectDB). On failure the databases opened so far are closed.
func (r *runner) openSeveral(log io.Writer) error {
	switch {
	case r.cfg.existingKeys:
		// db_bench asserts a single database here.
		r.errf("Not implemented: --use_existing_keys reads one database; --num_multi_db=%d opens several\n", r.cfg.numMultiDB)
		return errExit{"use_existing_keys with several databases"}
	}
	// db_bench creates --wal_dir for the databases' own WAL directories
	// in it, which RocksDB makes one level deep only.
	if r.opts.WALDir != "" && !r.opts.ReadOnly {
		if err := mkdirDurable(r.opts.WALDir); err != nil {
			r.errf("open error: %v\n", err)
			return errExit{"open failed"}
		}
	}
	r.multi = make([]dbSlot, 0, r.cfg.numMultiDB)
	for i := 0; i < int(r.cfg.numMultiDB); i++ {
		path := multiDBPath(r.cfg.db, i)
		// A read-only open creates nothing, as with one database.
		if !r.opts.ReadOnly {
			if err := mkdirDurable(path); err != nil {
				return r.failSeveral(fmt.Errorf("open error: %v", err))
			}
		}
		start := time.Now()
		db, err := r.opener.Open(path, r.slotOptions(i), log)
		r.reportOpenTime(start)
		if err != nil {
			if r.openLog != nil {
				r.openLog.release()
			}
			return r.failSeveral(fmt.Errorf("open error: %v", err))
		}
		r.multi = append(r.multi, dbSlot{db: db, path: path})
		// The engine's warnings about the options were said at the
		// first open; the others share its options.
		r.opts.Explicit = map[string]bool{}
		fams, err := r.newColumnFamilies(db)
		if err != nil {
			return r.failSeveral(err)
		}
		r.multi[i].families = fams
	}
	r.db = r.multi[0].db
	return nil
}

// failSeveral prints err, closes the databases openSeveral opened and
// returns the exit.
func (r *runner) failSeveral(err error) error {
	r.errf("%v\n", err)
	if cerr := r.closeDBs(); cerr != nil {
		r.errf("close error: %v\n", cerr)
	}
	return errExit{"open failed"}
}

// closeDBs closes every open database and forgets them; the first
// error is returned after all were closed.
func (r *runner) closeDBs() error {
	if r.multi == nil {
		if r.db == nil {
			return nil
		}
		err := r.db.Close()
		r.db = nil
		return err
	}
	var first error
	for _, s := range r.multi {
		if err := s.db.Close(); err != nil && first == nil {
			first = err
		}
	}
	r.multi, r.db, r.families = nil, nil, nil
	return first
}

// destroySeveral is the fresh-database step of db_bench's Run with
// --num_multi_db > 1: each numbered database is destroyed (with its own
// --wal_dir), and --db itself is left alone.
func (r *runner) destroySeveral() {
	for i := 0; i < int(r.cfg.numMultiDB); i++ {
		path := multiDBPath(r.cfg.db, i)
		if !existsNotDir(path) {
			r.destroyFailed(r.opener.Destroy(path, r.slotOptions(i)))
		}
	}
}

// dbHeader is db_bench's "==== DB: <name> ===" line that heads each
// database's part of a printout with several databases; nothing with one.
func (r *runner) dbHeader(path string) {
	if r.multi != nil {
		r.outf("\n==== DB: %s ===\n", path)
	}
}

// checkSeveralDBs refuses, with several databases, a benchmark that runs
// on one database here.
func (r *runner) checkSeveralDBs(name string) error {
	def := benchmarks[name]
	if r.multi == nil || def.severalDBs {
		return nil
	}
	r.out.Flush()
	if msg := def.severalDBRefusal; msg != "" {
		r.errf("%s\n", msg)
	} else {
		r.errf("Not implemented: benchmark %s runs on one database; --num_multi_db=%d opens several\n", name, r.cfg.numMultiDB)
	}
	return errExit{"benchmark on one database"}
}
