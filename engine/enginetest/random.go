package enginetest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// runRandom applies ops random operations to the engine and the model and
// compares every read. Operation weights (out of 100): 34 put, 10 delete,
// 10 batch, 20 get, 4 full scans, 14 seeks with steps, 2 flush, 2 compact,
// 1 wait for compactions, 1 property read, 2 reopen.
func runRandom(t *testing.T, open OpenFunc, seed uint64, ops int) {
	dir := t.TempDir()
	db := open(dir)
	defer func() { mustClose(t, db) }()
	src := newRandomSource(seed)
	m := newModel()
	batch := db.NewBatch()
	defer batch.Close()
	wo := &engine.WriteOptions{}

	for op := 0; op < ops; op++ {
		r := src.rng.IntN(100)
		wo.Sync = src.rng.IntN(50) == 0
		switch {
		case r < 34:
			k, v := src.key(), src.value()
			m.put(k, v)
			if err := db.Put(k, v, wo); err != nil {
				t.Fatalf("op %d Put(%s): %v", op, describe(k), err)
			}
		case r < 44:
			k := src.key()
			m.delete(k)
			if err := db.Delete(k, wo); err != nil {
				t.Fatalf("op %d Delete(%s): %v", op, describe(k), err)
			}
		case r < 54:
			batch.Reset()
			n := 1 + src.rng.IntN(20)
			for i := 0; i < n; i++ {
				if src.rng.IntN(4) == 0 {
					k := src.key()
					m.delete(k)
					batch.Delete(k)
				} else {
					k, v := src.key(), src.value()
					m.put(k, v)
					batch.Put(k, v)
				}
			}
			if batch.Count() != n {
				t.Fatalf("op %d batch Count = %d, want %d", op, batch.Count(), n)
			}
			if err := db.Apply(batch, wo); err != nil {
				t.Fatalf("op %d Apply: %v", op, err)
			}
		case r < 74:
			if src.rng.IntN(4) == 0 {
				checkMultiGet(t, engine.NewRuns(db), m, src, fmt.Sprintf("op %d", op))
				break
			}
			k := src.key()
			want, ok := m.get(k)
			expectGet(t, db, k, want, ok)
		case r < 78:
			checkScan(t, db, m, src, fmt.Sprintf("op %d", op))
		case r < 92:
			checkSeeks(t, db, m, src, fmt.Sprintf("op %d", op))
		case r < 94:
			if err := db.Flush(); err != nil {
				t.Fatalf("op %d Flush: %v", op, err)
			}
		case r < 96:
			var start, end []byte
			if src.rng.IntN(2) == 0 {
				start, end = src.bounds()
			}
			level := -1
			if src.rng.IntN(3) == 0 {
				level = src.rng.IntN(3)
			}
			if err := db.Compact(start, end, level); err != nil {
				t.Fatalf("op %d Compact(%s, %s, %d): %v", op, describe(start), describe(end), level, err)
			}
		case r < 97:
			if err := db.WaitForCompactions(); err != nil {
				t.Fatalf("op %d WaitForCompactions: %v", op, err)
			}
		case r < 98:
			for _, name := range []string{"rocksdb.stats", "rocksdb.levelstats", "rocksdb.num-immutable-mem-table"} {
				db.Property(name) // must not fail or panic; content is engine-specific
			}
		default:
			batch.Close()
			mustClose(t, db)
			db = open(dir)
			batch = db.NewBatch()
		}
	}
	checkScan(t, db, m, src, "final")
	for _, k := range src.keys {
		want, ok := m.get(k)
		expectGet(t, db, k, want, ok)
	}
}

// checkMultiGet looks up a few keys, some repeated, with one MultiGet call
// (the engine's own or Runs' Gets).
func checkMultiGet(t *testing.T, mg *engine.Runs, m *model, src *randomSource, what string) {
	t.Helper()
	keys := make([][]byte, 1+src.rng.IntN(8))
	for i := range keys {
		keys[i] = bytes.Clone(src.key())
	}
	found := make([]bool, len(keys))
	got := make([]string, len(keys))
	calls := make([]int, len(keys))
	if err := mg.MultiGet(keys, found, func(i int, v []byte) { got[i] = string(v); calls[i]++ }); err != nil {
		t.Fatalf("%s MultiGet: %v", what, err)
	}
	for i, k := range keys {
		want, ok := m.get(k)
		if found[i] != ok || (ok && (calls[i] != 1 || got[i] != want)) || (!ok && calls[i] != 0) {
			t.Fatalf("%s MultiGet key %d (%s): found %v value %q calls %d, want found %v value %q",
				what, i, describe(k), found[i], got[i], calls[i], ok, want)
		}
	}
}

// checkScan walks a (maybe bounded) iterator from one end to the other and
// compares it with the model.
func checkScan(t *testing.T, db engine.DB, m *model, src *randomSource, what string) {
	t.Helper()
	lower, upper := src.bounds()
	keysOnly := src.rng.IntN(4) == 0
	it, err := db.NewIter(&engine.IterOptions{LowerBound: lower, UpperBound: upper, KeysOnly: keysOnly})
	if err != nil {
		t.Fatalf("%s NewIter: %v", what, err)
	}
	defer closeIter(t, it)
	mi := newModelIter(m, lower, upper)
	what = fmt.Sprintf("%s scan [%s, %s)", what, describe(lower), describe(upper))
	if src.rng.IntN(2) == 0 {
		valid, want := it.First(), mi.first()
		for steps := 0; ; steps++ {
			checkPosition(t, fmt.Sprintf("%s forward step %d", what, steps), it, valid, mi, m, !keysOnly)
			if !want {
				break
			}
			valid, want = it.Next(), mi.next()
		}
		return
	}
	valid, want := it.Last(), mi.last()
	for steps := 0; ; steps++ {
		checkPosition(t, fmt.Sprintf("%s backward step %d", what, steps), it, valid, mi, m, !keysOnly)
		if !want {
			break
		}
		valid, want = it.Prev(), mi.prev()
	}
}

// checkSeeks positions one iterator several times with SeekGE, SeekLE, First
// or Last, each followed by a few Next/Prev steps in mixed directions.
func checkSeeks(t *testing.T, db engine.DB, m *model, src *randomSource, what string) {
	t.Helper()
	lower, upper := src.bounds()
	it, err := db.NewIter(&engine.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		t.Fatalf("%s NewIter: %v", what, err)
	}
	defer closeIter(t, it)
	mi := newModelIter(m, lower, upper)
	for seek := 0; seek < 4; seek++ {
		var valid bool
		var desc string
		switch src.rng.IntN(6) {
		case 0:
			valid, desc = it.First(), "First"
			mi.first()
		case 1:
			valid, desc = it.Last(), "Last"
			mi.last()
		case 2, 3:
			k := src.target()
			desc = "SeekGE(" + describe(k) + ")"
			valid = it.SeekGE(k)
			mi.seekGE(k) // a target below the lower bound lands on the first key in bounds
		default:
			k := src.target()
			desc = "SeekLE(" + describe(k) + ")"
			valid = it.SeekLE(k)
			mi.seekLE(k)
		}
		where := fmt.Sprintf("%s [%s, %s) %s", what, describe(lower), describe(upper), desc)
		checkPosition(t, where, it, valid, mi, m, true)
		for step := 0; step < 5 && mi.valid(); step++ {
			if src.rng.IntN(2) == 0 {
				valid = it.Next()
				mi.next()
				where += " Next"
			} else {
				valid = it.Prev()
				mi.prev()
				where += " Prev"
			}
			checkPosition(t, where, it, valid, mi, m, true)
		}
	}
}

func closeIter(t *testing.T, it engine.Iterator) {
	t.Helper()
	if err := it.Close(); err != nil {
		t.Fatalf("iterator Close: %v", err)
	}
}
