package dbbench

import (
	"fmt"
	"strings"

	"github.com/godbbench/godbbench/engine"
)

// Meta operations run in the main goroutine and print only their own output
// (no "DB path" and no result line).

// metaFlush flushes every open database, then says so once.
func (r *runner) metaFlush() error {
	err := r.eachDB(func(db engine.DB, _ string, _ *columnFamilies) error {
		if err := db.Flush(); err != nil {
			r.out.Flush()
			r.errf("Flush failed: %v\n", err)
			return errExit{"flush failed"}
		}
		return nil
	})
	if err != nil {
		return err
	}
	r.outf("flush memtable\n")
	return nil
}

// metaCompactAll is compactall: a full CompactRange, printing nothing.
// db_bench ignores CompactRange's status and goes on (a read-only DB's
// "Not supported" included, exit 0); so does this, saying what failed.
func (r *runner) metaCompactAll() error {
	return r.eachDB(func(db engine.DB, _ string, _ *columnFamilies) error {
		if err := db.Compact(nil, nil, int(r.cfg.compactTargetLevel)); err != nil {
			r.out.Flush()
			r.compactErrorIgnored(err)
		}
		return nil
	})
}

// metaWaitForCompaction prints db_bench 7.8.3's started/finished lines
// (twice per database, as it checks twice), naming each database by its
// path. db_bench polls properties with 5 s and 10 s sleeps; the engines
// here expose an exact wait, so no sleep is needed.
func (r *runner) metaWaitForCompaction() error {
	return r.eachDB(func(db engine.DB, path string, _ *columnFamilies) error {
		for i := 0; i < 2; i++ {
			r.outf("waitforcompaction(%s): started\n", path)
			r.out.Flush()
			if err := db.WaitForCompactions(); err != nil {
				r.errf("waitforcompaction(%s): %v\n", path, err)
				return errExit{"waitforcompaction failed"}
			}
			r.outf("waitforcompaction(%s): finished\n", path)
		}
		return nil
	})
}

func (r *runner) metaResetStats() error {
	return r.eachDB(func(db engine.DB, _ string, _ *columnFamilies) error {
		if err := db.ResetStats(); err != nil {
			r.out.Flush()
			r.errf("resetstats error: %v\n", err)
			return errExit{"resetstats failed"}
		}
		return nil
	})
}

// printProperty is db_bench's PrintStats(key): for each database (headed
// by its path when there are several) a newline, the property text (or
// "(failed)"), a newline.
func (r *runner) printProperty(name string) {
	r.eachDB(func(db engine.DB, path string, _ *columnFamilies) error {
		r.dbHeader(path)
		v, ok := db.Property(name)
		if !ok {
			v = "(failed)"
		}
		r.outf("\n%s\n", v)
		return nil
	})
	r.out.Flush()
}

var memStatProperties = []string{
	"rocksdb.num-immutable-mem-table",
	"rocksdb.cur-size-active-mem-table",
	"rocksdb.cur-size-all-mem-tables",
	"rocksdb.size-all-mem-tables",
	"rocksdb.num-entries-active-mem-table",
	"rocksdb.num-entries-imm-mem-tables",
}

func (r *runner) printMemStats() {
	r.eachDB(func(db engine.DB, path string, _ *columnFamilies) error {
		r.dbHeader(path)
		for _, p := range memStatProperties {
			v, ok := db.Property(p)
			if !ok {
				v = "(failed)"
			}
			r.outf("%s: %s\n", p, v)
		}
		return nil
	})
	r.out.Flush()
}

// printIntervalStats is --stats_per_interval's dump of db after thread 0's
// interval line (stderr), as db_bench prints it: the rocksdb.stats text as is
// (it carries its own newlines), then "num-running-compactions: N" and
// "num-running-flushes: N" and a blank line; a property the engine lacks is
// left out. A nil db (db_bench's FinishedOps without one) prints nothing;
// a db with column families, in the benchmarks that hand db_bench's
// FinishedOps its families, prints each family's stats (familystats.go).
func (r *runner) printIntervalStats(db engine.DB) {
	if db == nil {
		return
	}
	if fams := r.intervalFamilies(db); fams != nil {
		r.printFamilyStats(fams)
		return
	}
	var b strings.Builder
	if v, ok := db.Property("rocksdb.stats"); ok {
		b.WriteString(v)
	}
	if n, ok := db.Property("rocksdb.num-running-compactions"); ok {
		fmt.Fprintf(&b, "num-running-compactions: %s\n", n)
	}
	if n, ok := db.Property("rocksdb.num-running-flushes"); ok {
		fmt.Fprintf(&b, "num-running-flushes: %s\n\n", n)
	}
	if r.cfg.showTableProperties {
		r.appendTableProperties(&b, db)
	}
	r.errf("%s", b.String())
}

// appendTableProperties is --show_table_properties in the interval dump:
// "Level[N]: PROPS" for each level up to --num_levels whose
// rocksdb.aggregated-table-properties-at-levelN holds entries, as db_bench
// prints them. An engine without the property is said once.
func (r *runner) appendTableProperties(b *strings.Builder, db engine.DB) {
	for level := 0; level < r.opts.NumLevels; level++ {
		v, ok := db.Property(fmt.Sprintf("rocksdb.aggregated-table-properties-at-level%d", level))
		if !ok {
			if level == 0 && !r.warnedTableProperties {
				r.warnedTableProperties = true
				fmt.Fprintf(b, "WARNING: --show_table_properties: the %s engine has no rocksdb.aggregated-table-properties-at-level<N> property\n", r.opener.Info().Name)
			}
			return
		}
		if !strings.Contains(v, "# entries=0") {
			fmt.Fprintf(b, "Level[%d]: %s\n", level, v)
		}
	}
}

// compactErrorIgnored reports a failed CompactRange that the run goes on
// past, as db_bench ignores its status (compact, compactall).
func (r *runner) compactErrorIgnored(err error) {
	r.errf("compact error (ignored, as db_bench ignores it): %v\n", err)
}
