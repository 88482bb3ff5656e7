package lsm

import (
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// styleWrite writes one random put, delete or batch to db, as the leveled
// model test mixes them, and returns the writes in order; op names the
// values.
func styleWrite(t *testing.T, rng *rand.Rand, db *DB, op int) []fifoLogEntry {
	t.Helper()
	k := fmt.Sprintf("k%04d", rng.Intn(600))
	switch r := rng.Intn(10); {
	case r < 6:
		v := fmt.Sprintf("v%d-%s", op, make([]byte, rng.Intn(40)))
		put(t, db, k, v)
		return []fifoLogEntry{{key: k, value: v}}
	case r < 8:
		del(t, db, k)
		return []fifoLogEntry{{key: k, deleted: true}}
	}
	b := NewBatch()
	var writes []fifoLogEntry
	for j := rng.Intn(10); j >= 0; j-- {
		k := fmt.Sprintf("k%04d", rng.Intn(600))
		v := fmt.Sprint("b", op, j)
		b.Put([]byte(k), []byte(v))
		writes = append(writes, fifoLogEntry{key: k, value: v})
	}
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return writes
}

// apply applies writes to m.
func (m model) apply(writes []fifoLogEntry) {
	for _, w := range writes {
		if w.deleted {
			delete(m, w.key)
		} else {
			m[w.key] = w.value
		}
	}
}

// TestUniversalModel runs random writes, flushes, snapshots, manual
// compactions and reopens under the universal style against the model:
// universal compaction keeps every write, as leveled does. It checks that
// compactions placed runs in levels below L0.
//
// The concurrent runs allow three compactions at once
// (max_background_compactions) and add range deletions: concurrent
// universal compactions of disjoint spans must keep the runs' order, and a
// tombstone must not be dropped while an older run outside its compaction
// holds a key it covers.
func TestUniversalModel(t *testing.T) {
	for _, c := range []struct {
		seed       int64
		concurrent bool
	}{{1, false}, {2, false}, {3, false}, {3, true}, {4, true}} {
		seed, concurrent := c.seed, c.concurrent
		name := fmt.Sprint("seed=", seed)
		if concurrent {
			name += "/concurrent"
		}
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			dir := t.TempDir()
			o := modelOptions(seed)
			o.CompactionStyle = styleUniversal
			o.Level0FileNumCompactionTrigger = 3 + int((seed-1)%3)
			o.Extra = map[string]string{"compaction_options_universal.size_ratio": strconv.Itoa(int((seed-1)%3) * 20)}
			if concurrent {
				o.MaxBackgroundJobs, o.MaxBackgroundCompactions = 4, 3
			}
			run := &modelRun{t: t, rng: rng, m: model{}, open: func() *DB { return mustOpen(t, dir, o) }}
			run.db = run.open()
			deepest := 0
			for op := 0; op < 3000; op++ {
				if r := rng.Intn(100); concurrent && r < 4 {
					lo := rng.Intn(600)
					start, end := fmt.Sprintf("k%04d", lo), fmt.Sprintf("k%04d", lo+rng.Intn(40))
					deleteRange(t, run.db, start, end)
					for k := range run.m {
						if start <= k && k < end {
							delete(run.m, k)
						}
					}
				} else if r < 80 {
					run.m.apply(styleWrite(t, rng, run.db, op))
				} else {
					run.maintain(op)
				}
				v := run.db.currentVersionForTest()
				for level := 1; level < len(v.levels); level++ {
					if len(v.levels[level]) > 0 {
						deepest = max(deepest, level)
					}
				}
			}
			run.finish()
			if deepest == 0 {
				t.Fatal("no sorted run ever left L0")
			}
		})
	}
}

// currentVersionForTest is the current version, read under DB.mu.
func (db *DB) currentVersionForTest() *version {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.def.current
}

// fifoLogEntry is one write: key set to value, or deleted; the FIFO model
// logs it with the sequence of its batch.
type fifoLogEntry struct {
	seq     uint64
	key     string
	value   string
	deleted bool
}

// fifoModel is the FIFO reference. FIFO drops whole tables, oldest first,
// and tables hold consecutive sequence ranges, so what the DB keeps is
// every write after a cutoff: the end of the last flush before the oldest
// table left. flushEnds are the sequences at each explicit flush.
type fifoModel struct {
	log       []fifoLogEntry
	flushEnds []uint64
}

// state is the contents after cutoff up to seq.
func (f *fifoModel) state(cutoff, seq uint64) model {
	m := model{}
	for _, e := range f.log {
		if e.seq > cutoff && e.seq <= seq {
			m.apply([]fifoLogEntry{e})
		}
	}
	return m
}

// cutoff is the sequence up to which the DB has dropped data: the flush
// end before the oldest table left, or the last flush end when no table is
// left.
func (f *fifoModel) cutoff(db *DB) uint64 {
	v := db.currentVersionForTest()
	last := uint64(0)
	if n := len(f.flushEnds); n > 0 {
		last = f.flushEnds[n-1]
	}
	l0 := v.levels[0]
	if len(l0) == 0 {
		return last
	}
	oldest := l0[len(l0)-1].smallestSeq
	cut := uint64(0)
	for _, end := range f.flushEnds {
		if end < oldest {
			cut = end
		}
	}
	return cut
}

// TestFIFOModel writes at random with explicit flushes (the memtable is
// large enough that no other flush happens), lets FIFO drop and merge
// tables, and checks reads, scans and snapshots against the writes after
// the cutoff, then reopens. Snapshots do not keep dropped tables, in
// RocksDB either.
func TestFIFOModel(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			dir := t.TempDir()
			o := options.Small()
			o.CompactionStyle = styleFIFO
			o.WriteBufferSize = 4 << 20
			o.Level0FileNumCompactionTrigger = 2 + int(seed)
			o.Extra = map[string]string{
				"compaction_options_fifo.max_table_files_size": strconv.Itoa(int(seed) * 6 << 10),
				"compaction_options_fifo.allow_compaction":     strconv.FormatBool(seed != 2),
			}
			db := mustOpen(t, dir, o)
			f := &fifoModel{}
			var snaps []*Snapshot
			dropped := false
			for op := 0; op < 2500; op++ {
				switch r := rng.Intn(100); {
				case r < 85:
					writes := styleWrite(t, rng, db, op)
					seq := db.lastSeqForTest()
					for _, w := range writes {
						w.seq = seq
						f.log = append(f.log, w)
					}
				case r < 90:
					if err := db.Flush(); err != nil {
						t.Fatal(err)
					}
					f.flushEnds = append(f.flushEnds, db.lastSeqForTest())
					if err := db.WaitForCompactions(); err != nil {
						t.Fatal(err)
					}
				case r < 92:
					if len(snaps) < 3 {
						snaps = append(snaps, db.NewSnapshot())
					}
				case r < 97:
					cut := f.cutoff(db)
					dropped = dropped || cut > 0
					checkDB(t, db, f.state(cut, ^uint64(0)), nil, rng, fmt.Sprintf("op %d", op))
					for _, s := range snaps {
						checkDB(t, db, f.state(cut, s.Seq()), s, rng, fmt.Sprintf("op %d snapshot %d", op, s.Seq()))
					}
				default:
					for _, s := range snaps {
						s.Release()
					}
					snaps = nil
					// A flush first, so that the WAL replays nothing
					// into a table the model does not know.
					if err := db.Flush(); err != nil {
						t.Fatal(err)
					}
					f.flushEnds = append(f.flushEnds, db.lastSeqForTest())
					if err := db.Close(); err != nil {
						t.Fatal(err)
					}
					db = mustOpen(t, dir, o)
					if err := db.WaitForCompactions(); err != nil {
						t.Fatal(err)
					}
					checkDB(t, db, f.state(f.cutoff(db), ^uint64(0)), nil, rng, fmt.Sprintf("op %d reopened", op))
				}
			}
			if !dropped {
				t.Fatal("FIFO never dropped a table")
			}
			for _, s := range snaps {
				s.Release()
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// lastSeqForTest is the sequence of the last write.
func (db *DB) lastSeqForTest() uint64 {
	s := db.NewSnapshot()
	defer s.Release()
	return s.Seq()
}
