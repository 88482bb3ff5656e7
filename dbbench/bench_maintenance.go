package dbbench

import (
	"fmt"
	"math"
	"time"

	"github.com/godbbench/godbbench/engine"
)

// The maintenance benchmarks: approximatesizerandom, verifychecksum,
// verifyfilechecksums, compact0, compact1, block_cache_entry_stats and
// stats_history, which drive RocksDB's maintenance calls through
// engine.Maintainer (and a property, for block_cache_entry_stats).

// maintainer returns the engine.Maintainer of the open database (the
// first of several), or an error naming the engine when it has none.
func (r *runner) maintainer(bench string) (engine.Maintainer, error) {
	return r.maintainerOf(r.db, bench)
}

// maintainerOf is maintainer for the open database db.
func (r *runner) maintainerOf(db engine.DB, bench string) (engine.Maintainer, error) {
	if m, ok := db.(engine.Maintainer); ok {
		return m, nil
	}
	return nil, fmt.Errorf("%s: the %s engine lacks RocksDB's maintenance calls (engine.Maintainer)", bench, r.opener.Info().Name)
}

// setupApproximateSizeRandom prints db_bench's batch size line.
func setupApproximateSizeRandom(r *runner, _ *benchSpec) error {
	r.errf("entries_per_batch = %d\n", r.entriesPerBatch)
	return nil
}

// benchApproximateSizeRandom is db_bench's ApproximateSizeRandom: per op
// one DB-selection draw and --entries_per_batch ranges, each between two
// random keys (the smaller first), sized in one GetApproximateSizes call
// (tables only, as db_bench asks with the call's defaults). Each op counts
// entries_per_batch operations; the message is the mean size of a range.
// db_bench ignores the call's status; an error here ends the run.
func benchApproximateSizeRandom(r *runner, t *thread) error {
	if _, err := r.maintainer("approximatesizerandom"); err != nil {
		return err
	}
	batch := int(r.entriesPerBatch)
	ranges := make([]engine.KeyRange, batch)
	for i := range ranges {
		ranges[i] = engine.KeyRange{Start: r.keys.NewBuf(), Limit: r.keys.NewBuf()}
	}
	sizes := make([]uint64, batch)
	var sum, count int64
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	for !d.done(1) {
		db, _ := r.selectDB(t)
		m, _ := r.maintainerOf(db, "approximatesizerandom") // every database is of one engine
		for i := range ranges {
			lo, hi := r.randomKey(t), r.randomKey(t)
			if lo > hi {
				lo, hi = hi, lo
			}
			r.keys.Fill(ranges[i].Start, lo)
			r.keys.Fill(ranges[i].Limit, hi)
		}
		if err := m.ApproximateSizes(ranges, sizes); err != nil {
			return fmt.Errorf("GetApproximateSizes error: %v", err)
		}
		count += int64(batch)
		for _, s := range sizes {
			sum += int64(s)
		}
		t.stats.finishedOps(int64(batch), opOthers)
	}
	t.stats.addMessage(fmt.Sprintf("(Avg approx size=%s)", cDouble(float64(sum)/float64(count))))
	return nil
}

// cDouble is printf's %g of x, with glibc's "-nan" for the 0/0 of a run
// that did nothing.
func cDouble(x float64) string {
	if math.IsNaN(x) {
		return "-nan"
	}
	return cxxDouble(x)
}

// benchVerifyChecksum is db_bench's VerifyChecksum: one DB.VerifyChecksum
// per thread, counting no operation; a failure ends the run with exit 1.
func benchVerifyChecksum(r *runner, t *thread) error {
	return r.verifyCall(t, "verifychecksum", "VerifyChecksum", engine.Maintainer.VerifyChecksum)
}

// benchVerifyFileChecksums is db_bench's VerifyFileChecksums, the same
// with DB.VerifyFileChecksums, which needs --file_checksum.
func benchVerifyFileChecksums(r *runner, t *thread) error {
	return r.verifyCall(t, "verifyfilechecksums", "VerifyFileChecksums", engine.Maintainer.VerifyFileChecksums)
}

// verifyCall makes one verification call of the benchmark bench on the
// database of db_bench's selection draw; call is named by method in the
// error.
func (r *runner) verifyCall(t *thread, bench, method string, call func(engine.Maintainer) error) error {
	db, _ := r.selectDB(t)
	m, err := r.maintainerOf(db, bench)
	if err != nil {
		return err
	}
	if err := call(m); err != nil {
		return fmt.Errorf("%s() failed: %v", method, err)
	}
	return nil
}

// compactLevelTries bounds compact0 and compact1's retries. db_bench
// retries a failed CompactFiles after a waitforcompaction for ever; a
// failure that waiting does not cure would hang it, so this gives up and
// exits 1 after this many tries.
const compactLevelTries = 10

// metaCompactLevel is db_bench's CompactLevel (compact0, compact1): on
// each database in turn, compactLevelOnce until it succeeds, with a
// waitforcompaction (and its lines) after each failure.
func (r *runner) metaCompactLevel(from int) error {
	return r.eachDB(func(db engine.DB, _ string, _ *columnFamilies) error {
		return r.compactLevel(db, from)
	})
}

// compactLevel is metaCompactLevel on the database db.
func (r *runner) compactLevel(db engine.DB, from int) error {
	m, err := r.maintainerOf(db, fmt.Sprintf("compact%d", from))
	if err != nil {
		r.out.Flush()
		r.errf("%v\n", err)
		return errExit{err.Error()}
	}
	for try := 1; ; try++ {
		done, err := r.compactLevelOnce(m, from)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		if try == compactLevelTries {
			r.out.Flush()
			r.errf("compact%d: CompactFiles failed %d times, giving up\n", from, try)
			return errExit{"compact level failed"}
		}
		if err := r.metaWaitForCompaction(); err != nil {
			return err
		}
	}
}

// compactLevelOnce is db_bench's CompactLevelHelper: it compacts every
// table of the first level holding data at or after from (level 0, or
// the first non-empty level below it for compact1) into the next level
// holding data, with db_bench's lines on stdout, and reports false when
// CompactFiles failed (printed on stderr) so the caller retries.
func (r *runner) compactLevelOnce(m engine.Maintainer, from int) (bool, error) {
	files, err := m.LiveFiles()
	if err != nil {
		r.out.Flush()
		r.errf("compact%d: listing the live files: %v\n", from, err)
		return false, errExit{"live files failed"}
	}
	realFrom := from
	if from > 0 {
		realFrom = math.MaxInt
		for _, f := range files {
			if f.Level > 0 && f.Level < realFrom {
				realFrom = f.Level
			}
		}
		if realFrom == math.MaxInt {
			r.outf("compact%d found 0 files to compact\n", from)
			return true, nil
		}
	}
	next := math.MaxInt
	var names []string
	for _, f := range files {
		switch {
		case f.Level == realFrom:
			names = append(names, f.Name)
		case f.Level > realFrom && f.Level < next:
			next = f.Level
		}
	}
	switch {
	case len(names) == 0:
		r.outf("compact%d found 0 files to compact\n", from)
		return true, nil
	case next == math.MaxInt:
		r.outf("compact%d found no data beyond L%d\n", from, realFrom)
		return true, nil
	}
	r.outf("compact%d found %d files to compact from L%d to L%d\n", from, len(names), realFrom, next)
	if err := m.CompactFiles(names, next); err != nil {
		r.out.Flush()
		r.errf("compact%d CompactFiles failed: %v\n", from, err)
		return false, nil
	}
	return true, nil
}

// metaStatsHistory is db_bench's PrintStatsHistory: for each database
// (headed by its path when there are several) every snapshot of the
// engine's statistics history, a "------ <local time> ------" line and
// then " <time>   <name>  <value>" per statistic. A failure is printed on
// stdout and the run goes on, as db_bench does.
func (r *runner) metaStatsHistory() error {
	return r.eachDB(func(db engine.DB, path string, _ *columnFamilies) error {
		r.dbHeader(path)
		return r.statsHistory(db)
	})
}

// statsHistory is metaStatsHistory on the database db.
func (r *runner) statsHistory(db engine.DB) error {
	m, err := r.maintainerOf(db, "stats_history")
	if err != nil {
		r.out.Flush()
		r.errf("%v\n", err)
		return errExit{err.Error()}
	}
	last, started := uint64(0), false
	err = m.StatsHistory(func(ts uint64, name string, value uint64) {
		if !started || ts != last {
			r.outf("------ %s ------\n", time.Unix(int64(int32(ts)), 0).Format("Mon Jan _2 15:04:05 2006"))
			last, started = ts, true
		}
		r.outf(" %d   %s  %d\n", ts, name, value)
	})
	if err != nil {
		r.outf("%v\n", err)
	}
	return nil
}
