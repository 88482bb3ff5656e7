package dbbench

import (
	"fmt"
	"strings"

	"github.com/godbbench/godbbench/engine"
)

// The deterministic fills, fillseqdeterministic and
// filluniquerandomdeterministic: db_bench 7.8.3's DoDeterministicCompact.
// They write rounds of keys, flushing after each, until the L0 tables of
// the rounds (the sorted runs) can fill every level, then compact each run
// into its own level with CompactFiles, oldest run deepest, and print the
// LSM they built. The first round writes in the benchmark's order
// (sequential or shuffled), the later ones shuffled.
//
// Leveled (--compaction_style=0): each round writes 1/multiplier of the
// last; the rounds stop at num_levels-1 runs, a one-table run or no
// writes, and the last run leaves its newest third in L0; fewer than
// num_levels-1 runs is "n is too small". Universal (1): each round writes
// 100/(size_ratio+200) of the last, with no cap on the runs; num_levels
// runs are needed, and runs past the levels are compacted in L0, one
// table each. FIFO (2): rounds of all the keys until the L0 tables reach
// max_table_files_size, then a CompactRange; db_bench does it only with
// num_levels 1 and otherwise returns at once, having written nothing.
// db_bench ignores CompactFiles' status; so does this, saying on stderr
// what failed. With several databases (--num_multi_db) each round writes
// into all of them as the fills do, every database's runs are gathered
// after it, the first database to stop stops the rounds, and each one is
// compacted and printed in turn.

func benchFillSeqDeterministic(r *runner, t *thread) error {
	return r.doDeterministicCompact(t, "fillseqdeterministic", writeSequential)
}

func benchFillUniqueRandomDeterministic(r *runner, t *thread) error {
	return r.doDeterministicCompact(t, "filluniquerandomdeterministic", writeUniqueRandom)
}

// setupFillDeterministic is db_bench's dispatch of the deterministic
// fills: auto compactions must be off, and they run on one thread.
func setupFillDeterministic(r *runner, s *benchSpec) error {
	if err := refuseAutoCompactions(r, s); err != nil {
		return err
	}
	if s.threads > 1 {
		r.errf("filldeterministic multithreaded not supported, use 1 thread\n")
		s.threads = 1
	}
	return nil
}

// deterministicDB is one database of a deterministic fill: its
// CompactFiles, the sorted runs found so far (each newest table first) and
// how many L0 tables it had after the last round.
type deterministicDB struct {
	db     engine.DB
	m      engine.NamedFileCompactor
	runs   [][]engine.LiveFile
	l0Seen int
}

// deterministicDBs returns the open databases of a deterministic fill in
// order (db_bench's db_list: db_, or every one of multi_dbs_), or the
// refusal of an engine without CompactFiles of named tables.
func (r *runner) deterministicDBs(bench string) ([]deterministicDB, error) {
	var dbs []deterministicDB
	err := r.eachDB(func(db engine.DB, _ string, _ *columnFamilies) error {
		m, ok := db.(engine.NamedFileCompactor)
		if !ok {
			return fmt.Errorf("%s: the %s engine has no CompactFiles of named tables (RocksDB's DB::CompactFiles), which builds the levels", bench, r.opener.Info().Name)
		}
		dbs = append(dbs, deterministicDB{db: db, m: m})
		return nil
	})
	return dbs, err
}

func (r *runner) doDeterministicCompact(t *thread, bench string, mode writeMode) error {
	dbs, err := r.deterministicDBs(bench)
	if err != nil {
		return err
	}
	o := r.opts
	numLevels := o.NumLevels
	switch o.CompactionStyle {
	case 0, 1:
	case 2:
		// db_bench returns "Doesn't support multiDB" for any
		// --num_multi_db but 0, and ignores the status.
		if numLevels != 1 || r.cfg.numMultiDB != 0 {
			return nil
		}
		return r.fillFIFODeterministic(t, dbs[0].db, mode)
	default:
		r.outf("%-12s : skipped (-compaction_stype=kCompactionStyleNone)\n", "filldeterministic")
		return nil
	}
	universal := o.CompactionStyle == 1
	outputLevel := numLevels - 1
	ratio := o.UniversalOption("size_ratio", 1)
	for stop := false; !stop; {
		round := mode
		if len(dbs[0].runs) > 0 {
			round = writeUniqueRandom
		}
		if err := r.doWrite(t, round); err != nil {
			return err
		}
		// Every database ends the round; the first to stop stops the
		// rounds.
		for i := range dbs {
			d := &dbs[i]
			l0, err := flushedL0(d.db, d.m)
			if err != nil {
				return err
			}
			if len(l0) == d.l0Seen || r.writes == 0 {
				stop = true
				continue
			}
			run := l0[:len(l0)-d.l0Seen]
			d.runs = append(d.runs, run)
			d.l0Seen = len(l0)
			if len(run) == 1 {
				stop = true
			} else if !universal && len(d.runs) == outputLevel {
				// The newest third stays in L0.
				d.runs[len(d.runs)-1] = run[len(run)/3:]
				stop = true
			}
		}
		if universal {
			r.writes = int64(float64(r.writes) * 100 / float64(ratio+200))
		} else {
			r.writes /= int64(o.MaxBytesForLevelMultiplier)
		}
	}
	need := numLevels - 1
	if universal {
		need = numLevels
	}
	for _, d := range dbs {
		if len(d.runs) < need {
			r.out.Flush()
			r.errf("n is too small to fill %d levels\n", numLevels)
			return errExit{"n is too small"}
		}
	}
	for _, d := range dbs {
		for j, run := range d.runs {
			if !universal {
				r.outf("%d\n", len(run))
			}
			level := max(outputLevel-j, 0)
			names := make([]string, len(run))
			for i, f := range run {
				names[i] = f.Name
			}
			if err := d.m.CompactFiles(names, level); err != nil {
				r.out.Flush()
				r.errf("%s: CompactFiles into L%d failed: %v\n", bench, level, err)
			}
		}
	}
	for k, d := range dbs {
		if err := r.printDeterministicLSM(k, d.m); err != nil {
			return err
		}
	}
	return nil
}

// flushedL0 flushes db and lists its L0 tables, newest first.
func flushedL0(db engine.DB, m engine.Maintainer) ([]engine.LiveFile, error) {
	if err := db.Flush(); err != nil {
		return nil, err
	}
	files, err := m.LiveFiles()
	if err != nil {
		return nil, err
	}
	var l0 []engine.LiveFile
	for _, f := range files {
		if f.Level == 0 {
			l0 = append(l0, f)
		}
	}
	return l0, nil
}

// fillFIFODeterministic is the FIFO branch: rounds of the benchmark's
// writes until the L0 tables reach max_table_files_size, then a
// CompactRange, whose FIFO picker drops what exceeds it.
func (r *runner) fillFIFODeterministic(t *thread, db engine.DB, mode writeMode) error {
	limit := r.opts.FIFOOption("max_table_files_size", 0)
	for {
		if err := r.doWrite(t, mode); err != nil {
			return err
		}
		l0, err := flushedL0(db, db.(engine.Maintainer))
		if err != nil {
			return err
		}
		var total uint64
		for _, f := range l0 {
			total += f.Size
		}
		if total >= limit {
			break
		}
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		return err
	}
	return r.printDeterministicLSM(0, db.(engine.Maintainer))
}

// printDeterministicLSM prints the LSM of database k as
// DoDeterministicCompact does: every L0 table with its size, and for each
// other non-empty level its first and last table and total size. Names
// read "/000012.sst", as RocksDB's metadata spells them.
func (r *runner) printDeterministicLSM(k int, m engine.Maintainer) error {
	files, err := m.LiveFiles()
	if err != nil {
		return err
	}
	r.outf("---------------------- DB %d LSM ---------------------\n", k)
	name := func(f engine.LiveFile) string { return "/" + strings.TrimPrefix(f.Name, "/") }
	for i := 0; i < len(files); {
		level := files[i].Level
		j := i
		var total uint64
		for ; j < len(files) && files[j].Level == level; j++ {
			total += files[j].Size
			if level == 0 {
				r.outf("Level[0]: %s(size: %d bytes)\n", name(files[j]), files[j].Size)
			}
		}
		if level > 0 {
			r.outf("Level[%d]: %s - %s(total size: %d bytes)\n", level, name(files[i]), name(files[j-1]), total)
		}
		i = j
	}
	return nil
}
