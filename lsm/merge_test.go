package lsm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/mergeop"
	"github.com/godbbench/godbbench/options"
)

func openWithMerge(t testing.TB, dir string, o *options.Options, spec string) *DB {
	t.Helper()
	op, err := mergeop.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, o, Config{Version: "test", MergeOperator: op})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func merge(t testing.TB, db *DB, k, v string) {
	t.Helper()
	if err := db.Merge([]byte(k), []byte(v), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestBatchMergeEncoding(t *testing.T) {
	b := NewBatch()
	b.Merge([]byte("k1"), []byte("+1"))
	b.setSeq(7)
	want := []byte{7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 2, 'k', '1', 2, '+', '1'}
	if !bytes.Equal(b.Repr(), want) {
		t.Fatalf("Merge record % x, want % x", b.Repr(), want)
	}
	r, err := newBatchReader(b.Repr())
	if err != nil {
		t.Fatal(err)
	}
	kind, key, value, seq, ok, err := r.next()
	if err != nil || !ok || kind != 2 || string(key) != "k1" || string(value) != "+1" || seq != 7 {
		t.Fatalf("decoded %d %q %q %d %v %v", kind, key, value, seq, ok, err)
	}
}

func TestMergeWithoutOperator(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	if err := db.Merge([]byte("k"), []byte("v"), WriteOptions{}); !errors.Is(err, ErrNoMergeOperator) ||
		err.Error() != "Not implemented: Provide a merge_operator when opening DB" {
		t.Fatalf("Merge without an operator: %v", err)
	}
	// A batch takes the operand (RocksDB's WriteBatch does); reading it
	// fails in RocksDB's words, from memtables and tables alike.
	b := NewBatch()
	b.Merge([]byte("k"), []byte("v"))
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, stage := range []string{"memtable", "table"} {
		if _, err := db.Get([]byte("k"), nil); err == nil || err.Error() != "Invalid argument: merge_operator is not properly initialized." {
			t.Fatalf("%s: Get of an operand without an operator: %v", stage, err)
		}
		it, err := db.NewIter(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !it.First() {
			t.Fatalf("%s: the operand's key is not visible", stage)
		}
		if _, err := it.Value(); !errors.Is(err, ErrMergeOperatorMissing) {
			t.Fatalf("%s: iterator Value: %v", stage, err)
		}
		it.Close()
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestMergeOperandsKeptWithoutOperator: a DB written with a merge operator
// and opened without one keeps, through the open's flush of its WAL, later
// flushes and a bottommost compaction, the operands and the values and
// tombstones they merge onto: opened with the operator again, it reads
// the merged values. (The entries under an operand were dropped as
// shadowed, and the operator then merged the last operand alone.)
func TestMergeOperandsKeptWithoutOperator(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	db := openWithMerge(t, dir, o, "stringappend")
	put(t, db, "k", "base")
	merge(t, db, "k", "a")
	merge(t, db, "j", "x")
	del(t, db, "j")
	merge(t, db, "j", "y")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, dir, o) // replays the WAL without the operator
	b := NewBatch()
	b.Merge([]byte("k"), []byte("b"))
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openWithMerge(t, dir, o, "stringappend")
	defer db.Close()
	for k, want := range map[string]string{"k": "base,a,b", "j": "y"} {
		if v, ok := getString(t, db, k); !ok || v != want {
			t.Errorf("%s = %q, %v; want %q", k, v, ok, want)
		}
	}
}

// TestMergeSeesLaterWritesOnEveryRep: a Get that merges, and
// GetMergeOperands, read the memtable's writes made after an earlier such
// read. The vector and hash reps' iterators see only what was added before
// they were made, and a pooled one missed the later operands and values.
func TestMergeSeesLaterWritesOnEveryRep(t *testing.T) {
	for _, c := range []struct {
		rep    string
		prefix int
	}{{"skiplist", 0}, {"vector", 0}, {"prefix_hash:1024", 1}, {"hash_linkedlist:1024", 1}} {
		t.Run(c.rep, func(t *testing.T) {
			o := testOptions()
			o.Memtablerep, o.PrefixSize = c.rep, c.prefix
			db := openWithMerge(t, t.TempDir(), o, "stringappend")
			defer db.Close()
			put(t, db, "k", "v")
			want := "v"
			for _, op := range []string{"a", "b", "c"} {
				merge(t, db, "k", op)
				want += "," + op
				if v, ok := getString(t, db, "k"); !ok || v != want {
					t.Fatalf("after merging %s: k = %q, %v; want %q", op, v, ok, want)
				}
			}
			for _, v := range []string{"x", "y"} {
				put(t, db, "j", v)
				var got []string
				found, err := db.GetMergeOperands([]byte("j"), func(ops [][]byte) {
					for _, op := range ops {
						got = append(got, string(op))
					}
				})
				if err != nil || !found || fmt.Sprint(got) != "["+v+"]" {
					t.Fatalf("GetMergeOperands(j) after Put %s: %q %v %v", v, got, found, err)
				}
			}
		})
	}
}

func TestMergeStringAppendAcrossLevels(t *testing.T) {
	dir := t.TempDir()
	db := openWithMerge(t, dir, testOptions(), "stringappend")
	merge(t, db, "k", "a")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	merge(t, db, "k", "b")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	merge(t, db, "k", "c")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	merge(t, db, "k", "d")
	if v, ok := getString(t, db, "k"); !ok || v != "a,b,c,d" {
		t.Fatalf("Get = %q %v, want a,b,c,d", v, ok)
	}
	var got []string
	found, err := db.GetMergeOperands([]byte("k"), func(ops [][]byte) {
		for _, op := range ops {
			got = append(got, string(op))
		}
	})
	// "a,b" was fully merged into a value by the bottommost compaction.
	if err != nil || !found || fmt.Sprint(got) != "[a,b c d]" {
		t.Fatalf("GetMergeOperands = %q %v %v", got, found, err)
	}
	put(t, db, "k", "x")
	merge(t, db, "k", "y")
	del(t, db, "j")
	merge(t, db, "j", "z")
	if v, ok := getString(t, db, "k"); !ok || v != "x,y" {
		t.Fatalf("after Put: %q %v", v, ok)
	}
	if v, ok := getString(t, db, "j"); !ok || v != "z" {
		t.Fatalf("after Delete: %q %v", v, ok)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// The WAL replays the operands of the memtable.
	db = openWithMerge(t, dir, testOptions(), "stringappend")
	defer db.Close()
	if v, ok := getString(t, db, "k"); !ok || v != "x,y" {
		t.Fatalf("reopened: %q %v", v, ok)
	}
	if v, ok := getString(t, db, "j"); !ok || v != "z" {
		t.Fatalf("reopened: %q %v", v, ok)
	}
}

func TestMergeOperandsUnderSnapshotStaySeparate(t *testing.T) {
	dir := t.TempDir()
	db := openWithMerge(t, dir, testOptions(), "stringappendtest")
	defer db.Close()
	merge(t, db, "k", "1")
	merge(t, db, "k", "2")
	snap := db.NewSnapshot()
	defer snap.Release()
	merge(t, db, "k", "3")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	var v string
	if ok, err := snap.Get([]byte("k"), func(b []byte) { v = string(b) }); err != nil || !ok || v != "1,2" {
		t.Fatalf("snapshot read %q %v %v", v, ok, err)
	}
	if got, ok := getString(t, db, "k"); !ok || got != "1,2,3" {
		t.Fatalf("latest %q %v", got, ok)
	}
}

// mergeModel applies the test's operators to the model.
func mergeModel(spec string, m model, k, operand string) {
	old, ok := m[k]
	switch spec {
	case "uint64add":
		var sum uint64
		if ok && len(old) == 8 {
			sum = binary.LittleEndian.Uint64([]byte(old))
		}
		if len(operand) == 8 {
			sum += binary.LittleEndian.Uint64([]byte(operand))
		}
		m[k] = string(binary.LittleEndian.AppendUint64(nil, sum))
	default: // stringappend, stringappendtest
		if ok {
			m[k] = old + "," + operand
		} else {
			m[k] = operand
		}
	}
}

func randomOperand(rng *rand.Rand, spec string, op int) string {
	if spec == "uint64add" && rng.Intn(8) > 0 {
		return string(binary.LittleEndian.AppendUint64(nil, uint64(rng.Intn(1000))))
	}
	return fmt.Sprintf("m%d", op)
}

// TestRandomizedMergeModel mixes puts, deletes and merges with flushes,
// compactions, snapshots and reopens, and checks reads, scans both ways
// and snapshot reads against a map, over both table formats.
func TestRandomizedMergeModel(t *testing.T) { runRandomizedMergeModels(t) }

func runRandomizedMergeModels(t *testing.T) {
	for _, fc := range formatCases {
		for i, spec := range []string{"uint64add", "stringappend", "stringappendtest", "uint64add"} {
			seed := int64(i + 1)
			if fc.skipInShort(i) {
				continue
			}
			t.Run(fmt.Sprint(fc.name, "/", spec, "/seed=", seed), func(t *testing.T) {
				rng := rand.New(rand.NewSource(seed))
				dir := t.TempDir()
				o := fc.with(modelOptions(seed))
				run := &modelRun{t: t, rng: rng, m: model{}, open: func() *DB { return openWithMerge(t, dir, o, spec) }, format: &fc}
				run.db = run.open()
				m := run.m
				for op := 0; op < 3000; op++ {
					db := run.db
					k := fmt.Sprintf("k%04d", rng.Intn(150))
					switch r := rng.Intn(100); {
					case r < 25:
						v := randomOperand(rng, spec, op)
						put(t, db, k, v)
						m[k] = v
					case r < 32:
						del(t, db, k)
						delete(m, k)
					case r < 75:
						v := randomOperand(rng, spec, op)
						merge(t, db, k, v)
						mergeModel(spec, m, k, v)
					case r < 80:
						b := NewBatch()
						for j := rng.Intn(6); j >= 0; j-- {
							k := fmt.Sprintf("k%04d", rng.Intn(150))
							v := randomOperand(rng, spec, op)
							b.Merge([]byte(k), []byte(v))
							mergeModel(spec, m, k, v)
						}
						if err := db.Write(b, WriteOptions{}); err != nil {
							t.Fatal(err)
						}
					default:
						run.maintain(op)
					}
				}
				run.finish()
			})
		}
	}
}

// TestFlushPartialMerge: a flush (never bottommost) combines a key's
// operands into one where the operator allows and keeps them apart where it
// declines; GetMergeOperands shows which.
func TestFlushPartialMerge(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"stringappend", "[a,b,c]"},
		{"stringappendtest", "[a b c]"},
		{"max", "[c]"},
	} {
		db := openWithMerge(t, t.TempDir(), testOptions(), c.spec)
		for _, v := range []string{"a", "b", "c"} {
			merge(t, db, "k", v)
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		var got []string
		found, err := db.GetMergeOperands([]byte("k"), func(ops [][]byte) {
			for _, op := range ops {
				got = append(got, string(op))
			}
		})
		if err != nil || !found || fmt.Sprint(got) != c.want {
			t.Errorf("%s: operands after a flush %q (%v, %v), want %s", c.spec, got, found, err, c.want)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWALMergeRecordDamage: a damaged merge record in the middle of a WAL
// is damage like any other: every recovery mode but 3 refuses the open,
// and mode 3 (skip any corrupted record) loses that operand alone.
func TestWALMergeRecordDamage(t *testing.T) {
	dir := t.TempDir()
	db := openWithMerge(t, dir, testOptions(), "stringappend")
	want := map[string]string{}
	for i := 0; i < 300; i++ {
		k, v := fmt.Sprintf("k%d", i%3), fmt.Sprint(i)
		merge(t, db, k, v)
		if i != 100 {
			mergeModel("stringappend", want, k, v)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	damageWAL(t, dir, func(d []byte, offs []int) []byte {
		d[offs[100]+wal.HeaderSize+3] ^= 1 // a payload byte of record 100
		return d
	})
	for mode := 0; mode < 3; mode++ {
		cp := t.TempDir()
		copyDir(t, dir, cp)
		openRefused(t, cp, modeOptions(mode, false), ErrCorruption, ".log")
	}
	cp := t.TempDir()
	copyDir(t, dir, cp)
	op, _ := mergeop.Lookup("stringappend")
	db, err := Open(cp, modeOptions(3, false), Config{MergeOperator: op})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for k, v := range want {
		if got, ok := getString(t, db, k); !ok || got != v {
			t.Fatalf("%s = %q, want %q", k, got, v)
		}
	}
}

// TestMergeIteratorBothWays walks keys whose values are merges of operands
// spread over tables and the memtable, forward and backward, with Value at
// every step and direction changes after it.
func TestMergeIteratorBothWays(t *testing.T) {
	db := openWithMerge(t, t.TempDir(), testOptions(), "stringappend")
	defer db.Close()
	put(t, db, "a", "A")
	merge(t, db, "b", "1")
	merge(t, db, "c", "1")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	merge(t, db, "a", "2")
	del(t, db, "c")
	merge(t, db, "b", "2")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	merge(t, db, "c", "3")
	merge(t, db, "b", "3")
	put(t, db, "d", "D")
	want := []string{"a=A,2", "b=1,2,3", "c=3", "d=D"}
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	at := func(ok bool) string {
		if !ok {
			return "end"
		}
		v, err := it.Value()
		if err != nil {
			t.Fatal(err)
		}
		return string(it.Key()) + "=" + string(v)
	}
	var got []string
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, at(true))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("forward %q, want %q", got, want)
	}
	got = got[:0]
	for ok := it.Last(); ok; ok = it.Prev() {
		got = append(got, at(true))
	}
	if fmt.Sprint(got) != "[d=D c=3 b=1,2,3 a=A,2]" {
		t.Fatalf("backward %q", got)
	}
	steps := []struct {
		move func() bool
		want string
	}{
		{func() bool { return it.SeekGE([]byte("b")) }, "b=1,2,3"},
		{it.Next, "c=3"},
		{it.Prev, "b=1,2,3"},
		{it.Prev, "a=A,2"},
		{it.Next, "b=1,2,3"},
		{func() bool { return it.SeekLT([]byte("c")) }, "b=1,2,3"},
		{it.Next, "c=3"},
		{it.Next, "d=D"},
		{it.Next, "end"},
	}
	for i, s := range steps {
		if got := at(s.move()); got != s.want {
			t.Fatalf("step %d: %s, want %s", i, got, s.want)
		}
	}
}

// TestMergeOperatorFailure: an operand the operator cannot read (sortlist
// on "x") fails reads of its key with RocksDB's merge-failure words, and
// compactions keep such operands as they were instead of failing.
func TestMergeOperatorFailure(t *testing.T) {
	db := openWithMerge(t, t.TempDir(), testOptions(), "sortlist")
	defer db.Close()
	merge(t, db, "bad", "1,3")
	merge(t, db, "bad", "x")
	merge(t, db, "good", "2,9")
	merge(t, db, "good", "4")
	for _, stage := range []string{"memtable", "flushed", "compacted"} {
		switch stage {
		case "flushed":
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		case "compacted":
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
		}
		_, err := db.Get([]byte("bad"), nil)
		if err == nil || !strings.HasPrefix(err.Error(), "Corruption: Merge operator failed") {
			t.Fatalf("%s: Get of an unreadable operand: %v", stage, err)
		}
		if v, ok := getString(t, db, "good"); !ok || v != "2,4,9" {
			t.Fatalf("%s: good = %q %v", stage, v, ok)
		}
	}
}
