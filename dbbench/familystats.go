package dbbench

import (
	"strings"

	"github.com/godbbench/godbbench/engine"
)

// familyStatsBenchmarks are the benchmarks whose thread 0 hands db_bench's
// FinishedOps the DBWithColumnFamilies it works on (DoWrite, ReadRandom,
// ReadToRowCache, MixGraph, SeekRandom, BGWriter, BGScan,
// RandomWithVerify, TimeSeriesWrite): with --num_column_families > 1
// their --stats_per_interval dumps print each family's stats. The others
// hand it the DB alone, and print the DB's rocksdb.stats.
var familyStatsBenchmarks = map[string]bool{
	"fillseq": true, "fillbatch": true, "fillrandom": true, "filluniquerandom": true,
	"fillanddeleteuniquerandom": true, "overwrite": true, "fillsync": true, "fill100K": true,
	"readtorowcache": true, "readrandom": true, "readmissing": true, "readrandomsmall": true,
	"readrandomoperands": true, "mixgraph": true, "seekrandom": true,
	"seekrandomwhilewriting": true, "seekrandomwhilemerging": true, "readwhilewriting": true,
	"readwhilemerging": true, "readwhilescanning": true, "randomwithverify": true, "timeseries": true,
}

// intervalFamilies returns the column families of db, the database an
// interval dump is about, when the running benchmark dumps families'
// stats and db has them; nil otherwise.
func (r *runner) intervalFamilies(db engine.DB) *columnFamilies {
	if !r.familyStats {
		return nil
	}
	if r.multi == nil {
		if db == r.db {
			return r.families
		}
		return nil
	}
	for i := range r.multi {
		if r.multi[i].db == db {
			return r.multi[i].families
		}
	}
	return nil
}

// printFamilyStats is db_bench's interval dump of a database with column
// families: for each family created so far, in order, its rocksdb.cfstats
// and a newline, then its non-empty levels' table properties under
// --show_table_properties; a family without the property prints none.
func (r *runner) printFamilyStats(fams *columnFamilies) {
	var b strings.Builder
	for i := range fams.created.Load() {
		f := fams.db.ColumnFamily(int(i))
		if f == nil {
			continue
		}
		if v, ok := f.Property("rocksdb.cfstats"); ok {
			b.WriteString(v)
			b.WriteByte('\n')
		}
		if r.cfg.showTableProperties {
			r.appendTableProperties(&b, f)
		}
	}
	r.errf("%s", b.String())
}
