package lsm

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// model is the reference: a map from key to value at each sequence.
type model map[string]string

func (m model) clone() model {
	c := make(model, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func (m model) sortedKeys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type snapModel struct {
	snap  *Snapshot
	state model
}

func checkDB(t *testing.T, db *DB, m model, snap *Snapshot, rng *rand.Rand, label string) {
	t.Helper()
	// Point reads, including misses.
	for i := 0; i < 50; i++ {
		k := fmt.Sprintf("k%04d", rng.Intn(600))
		var got string
		var found bool
		var err error
		if snap != nil {
			found, err = snap.Get([]byte(k), func(v []byte) { got = string(v) })
		} else {
			found, err = db.Get([]byte(k), func(v []byte) { got = string(v) })
		}
		if err != nil {
			t.Fatalf("%s: get %s: %v", label, k, err)
		}
		want, ok := m[k]
		if found != ok || got != want && ok {
			t.Fatalf("%s: get %s = %q,%v want %q,%v", label, k, got, found, want, ok)
		}
	}
	// Full scans both ways.
	keys := m.sortedKeys()
	it, err := db.NewIter(&IterOptions{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		if i >= len(keys) || string(it.Key()) != keys[i] {
			t.Fatalf("%s: forward scan position %d got %q", label, i, it.Key())
		}
		if v, err := it.Value(); err != nil || string(v) != m[keys[i]] {
			t.Fatalf("%s: forward value of %s = %q %v", label, keys[i], v, err)
		}
		i++
	}
	if i != len(keys) {
		t.Fatalf("%s: forward scan saw %d keys, want %d", label, i, len(keys))
	}
	i = len(keys) - 1
	for ok := it.Last(); ok; ok = it.Prev() {
		if i < 0 || string(it.Key()) != keys[i] {
			t.Fatalf("%s: reverse scan position %d got %q", label, i, it.Key())
		}
		if rng.Intn(3) == 0 {
			if v, err := it.Value(); err != nil || string(v) != m[keys[i]] {
				t.Fatalf("%s: reverse value of %s = %q %v", label, keys[i], v, err)
			}
		}
		i--
	}
	if i != -1 {
		t.Fatalf("%s: reverse scan stopped at %d", label, i)
	}
	// Random seeks mixed with steps in both directions.
	for n := 0; n < 20; n++ {
		k := fmt.Sprintf("k%04d", rng.Intn(600))
		pos := sort.SearchStrings(keys, k)
		ok := it.SeekGE([]byte(k))
		if ok != (pos < len(keys)) || ok && string(it.Key()) != keys[pos] {
			t.Fatalf("%s: SeekGE(%s) = %v %q", label, k, ok, it.Key())
		}
		for s := 0; s < 5 && ok; s++ {
			if rng.Intn(2) == 0 {
				ok, pos = it.Next(), pos+1
			} else {
				ok, pos = it.Prev(), pos-1
			}
			want := pos >= 0 && pos < len(keys)
			if ok != want || ok && string(it.Key()) != keys[pos] {
				t.Fatalf("%s: step after SeekGE(%s): %v %q, want %v", label, k, ok, it.Key(), want)
			}
		}
		le := sort.SearchStrings(keys, k)
		if le == len(keys) || keys[le] != k {
			le--
		}
		ok = it.SeekLE([]byte(k))
		if ok != (le >= 0) || ok && string(it.Key()) != keys[le] {
			t.Fatalf("%s: SeekLE(%s) = %v %q", label, k, ok, it.Key())
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
}

// modelRun is one randomized run against a model: the DB, the reference
// state, and the live snapshots with the state each saw.
type modelRun struct {
	t     *testing.T
	rng   *rand.Rand
	db    *DB
	m     model
	snaps []snapModel
	open  func() *DB // opens the DB again after a Close
	// format, when set, is the table format whose tables the final
	// version must hold.
	format *formatCase
}

// maintain does one step of what the randomized tests mix with their
// writes: take or release a snapshot, flush, compact all or part, check
// reads of the latest state or of a snapshot, or close and reopen.
func (r *modelRun) maintain(op int) {
	t, db := r.t, r.db
	switch c := r.rng.Intn(22); {
	case c < 2:
		if len(r.snaps) < 4 {
			r.snaps = append(r.snaps, snapModel{db.NewSnapshot(), r.m.clone()})
		}
	case c < 4:
		if len(r.snaps) > 0 {
			i := r.rng.Intn(len(r.snaps))
			r.snaps[i].snap.Release()
			r.snaps = append(r.snaps[:i], r.snaps[i+1:]...)
		}
	case c < 6:
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	case c < 7:
		if err := db.Compact(nil, nil, -1); err != nil {
			t.Fatal(err)
		}
	case c < 8:
		lo := fmt.Sprintf("k%04d", r.rng.Intn(600))
		if err := db.Compact([]byte(lo), nil, -1); err != nil {
			t.Fatal(err)
		}
	case c < 14:
		checkDB(t, db, r.m, nil, r.rng, fmt.Sprintf("op %d", op))
	case c < 18:
		if len(r.snaps) > 0 {
			s := r.snaps[r.rng.Intn(len(r.snaps))]
			checkDB(t, db, s.state, s.snap, r.rng, fmt.Sprintf("op %d snapshot %d", op, s.snap.Seq()))
		}
	default:
		if r.rng.Intn(4) == 0 {
			for _, s := range r.snaps {
				s.snap.Release()
			}
			r.snaps = nil
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			r.db = r.open()
			checkDB(t, r.db, r.m, nil, r.rng, fmt.Sprintf("op %d reopened", op))
		}
	}
}

// finish waits for compactions, checks the latest state and every
// snapshot, and closes the DB.
func (r *modelRun) finish() {
	if err := r.db.WaitForCompactions(); err != nil {
		r.t.Fatal(err)
	}
	checkDB(r.t, r.db, r.m, nil, r.rng, "final")
	for _, s := range r.snaps {
		checkDB(r.t, r.db, s.state, s.snap, r.rng, "final snapshot")
	}
	if r.format != nil {
		r.format.requireFormat(r.t, r.db)
	}
	if err := r.db.Close(); err != nil {
		r.t.Fatal(err)
	}
}

// modelOptions are the randomized tests' options for seed 1 to 4: small
// memtables and tables, so that a few thousand writes reach several levels,
// and a different memtable rep, compression and compaction_pri per seed.
func modelOptions(seed int64) *options.Options {
	o := testOptions()
	o.WriteBufferSize = 32 << 10
	o.MaxWriteBufferNumber = 3
	o.MinWriteBufferNumberToMerge = 1 + int(seed%2)
	o.NumLevels = 4 + int(seed%3)
	o.TargetFileSizeBase = 16 << 10
	o.MaxBytesForLevelBase = 64 << 10
	o.Memtablerep = []string{"skip_list", "cspp", "offset_skiplist", "skip_list"}[seed-1]
	o.CompressionType = []string{"none", "snappy", "zstd", "lz4"}[seed-1]
	o.CompactionPri = []int{priMinOverlappingRatio, priByCompensatedSize, priRoundRobin, priOldestSmallestSeqFirst}[seed-1]
	o.RowCacheSize = modelRowCacheSize
	return o
}

// TestRandomizedModel runs over both table formats (the rtable runs write
// the levels below L0 as rtable tables and keep L0 in the block format).
func TestRandomizedModel(t *testing.T) { runRandomizedModels(t, false) }

// TestRandomizedModelRangeDeletes mixes range deletions of up to 40 keys
// into the same workload: every read is checked against the model, so a
// covered key that comes back, in a memtable, a table, after a compaction
// or under a snapshot, fails the test.
func TestRandomizedModelRangeDeletes(t *testing.T) { runRandomizedModels(t, true) }

func runRandomizedModels(t *testing.T, rangeDels bool) {
	for _, fc := range formatCases {
		for seed := int64(1); seed <= 4; seed++ {
			if fc.skipInShort(int(seed) - 1) {
				continue
			}
			t.Run(fmt.Sprint(fc.name, "/seed=", seed), func(t *testing.T) {
				rng := rand.New(rand.NewSource(seed))
				dir := t.TempDir()
				o := fc.with(modelOptions(seed))
				run := &modelRun{t: t, rng: rng, m: model{}, open: func() *DB { return mustOpen(t, dir, o) }, format: &fc}
				// rtableDels counts, over the maintenance steps, the
				// rtable tables seen holding range tombstones: the rtable
				// runs must store some there, not only in L0's block
				// tables.
				rtableDels := 0
				run.db = run.open()
				m := run.m
				for op := 0; op < 3000; op++ {
					db := run.db
					switch r := rng.Intn(100); {
					case rangeDels && r < 4:
						lo := rng.Intn(600)
						start, end := fmt.Sprintf("k%04d", lo), fmt.Sprintf("k%04d", lo+rng.Intn(40))
						b := NewBatch()
						b.DeleteRange([]byte(start), []byte(end))
						if err := db.Write(b, WriteOptions{}); err != nil {
							t.Fatal(err)
						}
						for k := range m {
							if start <= k && k < end {
								delete(m, k)
							}
						}
					case r < 55:
						k := fmt.Sprintf("k%04d", rng.Intn(600))
						v := fmt.Sprintf("v%d-%s", op, make([]byte, rng.Intn(40)))
						put(t, db, k, v)
						m[k] = v
					case r < 70:
						k := fmt.Sprintf("k%04d", rng.Intn(600))
						del(t, db, k)
						delete(m, k)
					case r < 78:
						b := NewBatch()
						for j := rng.Intn(10); j >= 0; j-- {
							k := fmt.Sprintf("k%04d", rng.Intn(600))
							if rng.Intn(3) == 0 {
								b.Delete([]byte(k))
								delete(m, k)
							} else {
								v := fmt.Sprint("b", op, j)
								b.Put([]byte(k), []byte(v))
								m[k] = v
							}
						}
						if err := db.Write(b, WriteOptions{Sync: rng.Intn(10) == 0}); err != nil {
							t.Fatal(err)
						}
					default:
						run.maintain(op)
						if rangeDels && fc.format == options.TableFormatRTable {
							rtableDels += rtableRangeDelTables(t, run.db)
						}
					}
				}
				if rangeDels && fc.format == options.TableFormatRTable && rtableDels == 0 {
					t.Error("no rtable table ever held a range tombstone")
				}
				run.finish()
			})
		}
	}
}
