package enginetest

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// MergeOpenFunc opens the engine's database in dir with the merge operator
// op (a db_bench --merge_operator name; "" none), failing t on error.
type MergeOpenFunc func(dir, op string) engine.DB

// RunMerge checks Merge as RocksDB behaves, with db_bench's uint64add and
// stringappend operators: operands merged on read with the key's earlier
// value, across Delete, batches, iterators, a flush, a compaction and a
// reopen; RocksDB's refusals without a merge operator. With operands the
// engine must list a key's operands (GetMergeOperands, oldest first, a
// Put's value first); without, it must refuse GetMergeOperands with an
// error.
func RunMerge(t *testing.T, open MergeOpenFunc, operands bool) {
	t.Run("NoOperator", func(t *testing.T) { testMergeNoOperator(t, open) })
	t.Run("UInt64Add", func(t *testing.T) { testMergeUInt64Add(t, open, operands) })
	t.Run("StringAppend", func(t *testing.T) { testMergeStringAppend(t, open, operands) })
}

func testMergeNoOperator(t *testing.T, open MergeOpenFunc) {
	db := open(t.TempDir(), "")
	defer mustClose(t, db)
	err := db.Merge([]byte("k"), []byte("v"), noSyncWrite)
	if err == nil || err.Error() != engine.ErrNoMergeOperator.Error() {
		t.Errorf("Merge without an operator: %v, want %q", err, engine.ErrNoMergeOperator)
	}
	b := db.NewBatch()
	defer b.Close()
	b.Merge([]byte("k"), []byte("v"))
	if b.Count() != 1 {
		t.Errorf("batch Count after one Merge: %d", b.Count())
	}
	if err := db.Apply(b, noSyncWrite); err == nil {
		t.Error("Apply of a batch holding a Merge, without an operator: no error")
	}
	expectGet(t, db, []byte("k"), "", false)
}

// u64 is uint64add's value format: 8 bytes, little endian.
func u64(n uint64) string { return string(binary.LittleEndian.AppendUint64(nil, n)) }

// mergeStep is a write of the merge tests: op 'p' Put, 'd' Delete, 'm'
// Merge.
type mergeStep struct {
	op         byte
	key, value string
}

// applySteps writes steps one call each, or, with batch, in one batch.
func applySteps(t *testing.T, db engine.DB, steps []mergeStep, batch bool) {
	t.Helper()
	var b engine.Batch
	if batch {
		b = db.NewBatch()
		defer b.Close()
	}
	for _, s := range steps {
		k, v := []byte(s.key), []byte(s.value)
		var err error
		switch {
		case batch && s.op == 'p':
			b.Put(k, v)
		case batch && s.op == 'd':
			b.Delete(k)
		case batch:
			b.Merge(k, v)
		case s.op == 'p':
			err = db.Put(k, v, noSyncWrite)
		case s.op == 'd':
			err = db.Delete(k, noSyncWrite)
		default:
			err = db.Merge(k, v, noSyncWrite)
		}
		if err != nil {
			t.Fatalf("%c %q: %v", s.op, s.key, err)
		}
	}
	if batch {
		if b.Count() != len(steps) {
			t.Errorf("batch Count %d after %d writes", b.Count(), len(steps))
		}
		if err := db.Apply(b, noSyncWrite); err != nil {
			t.Fatalf("Apply: %v", err)
		}
	}
}

// expectMerged checks every key of want (absent: "" with ok false) by Get
// and by one scan, in which each key is read before its value.
func expectMerged(t *testing.T, db engine.DB, what string, want map[string]string) {
	t.Helper()
	for k, v := range want {
		expectGet(t, db, []byte(k), v, true)
	}
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatalf("%s: NewIter: %v", what, err)
	}
	defer closeIter(t, it)
	seen := 0
	for ok := it.First(); ok; ok = it.Next() {
		keyBytes := it.Key()
		k := string(keyBytes)
		v, err := it.Value()
		if err != nil {
			t.Fatalf("%s: Value at %q: %v", what, k, err)
		}
		// Key stays valid until the iterator moves: loading a merged
		// value must not change it.
		if string(keyBytes) != k || string(it.Key()) != k {
			t.Errorf("%s: the key %q read before Value became %q", what, k, keyBytes)
		}
		w, known := want[k]
		if !known {
			t.Errorf("%s: scan found %q, which should not exist", what, k)
			continue
		}
		if string(v) != w {
			t.Errorf("%s: scan at %q: %q, want %q", what, k, v, w)
		}
		seen++
	}
	if err := it.Error(); err != nil {
		t.Fatalf("%s: scan: %v", what, err)
	}
	if seen != len(want) {
		t.Errorf("%s: scan saw %d keys, want %d", what, seen, len(want))
	}
}

// expectOperands checks GetMergeOperands of key: want lists the operands
// (nil: the key is absent). Without operands the call must fail.
func expectOperands(t *testing.T, db engine.DB, operands bool, key string, want []string) {
	t.Helper()
	var got []string
	found, err := db.GetMergeOperands([]byte(key), func(v []byte) { got = append(got, string(v)) })
	if !operands {
		if err == nil {
			t.Errorf("GetMergeOperands(%q): no error from an engine said to refuse it", key)
		}
		return
	}
	if err != nil {
		t.Fatalf("GetMergeOperands(%q): %v", key, err)
	}
	if found != (want != nil) || fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Errorf("GetMergeOperands(%q): found %v %q, want %q", key, found, got, want)
	}
}

func testMergeUInt64Add(t *testing.T, open MergeOpenFunc, operands bool) {
	dir := t.TempDir()
	db := open(dir, "uint64add")
	applySteps(t, db, []mergeStep{
		{'m', "a", u64(1)}, {'m', "a", u64(2)}, {'m', "a", u64(3)},
		{'p', "b", u64(10)}, {'m', "b", u64(5)},
		{'m', "c", u64(7)}, {'d', "c", ""}, {'m', "c", u64(1)},
		{'m', "gone", u64(1)}, {'d', "gone", ""},
	}, false)
	applySteps(t, db, []mergeStep{
		{'p', "d", u64(100)}, {'m', "d", u64(1)}, {'m', "e", u64(2)}, {'m', "e", u64(2)},
	}, true)
	want := map[string]string{"a": u64(6), "b": u64(15), "c": u64(1), "d": u64(101), "e": u64(4)}
	expectMerged(t, db, "memtable", want)
	expectGet(t, db, []byte("gone"), "", false)
	expectOperands(t, db, operands, "a", []string{u64(1), u64(2), u64(3)})
	expectOperands(t, db, operands, "b", []string{u64(10), u64(5)})
	expectOperands(t, db, operands, "c", []string{u64(1)})
	expectOperands(t, db, operands, "gone", nil)
	expectOperands(t, db, operands, "missing", nil)

	if err := db.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	applySteps(t, db, []mergeStep{{'m', "a", u64(4)}, {'m', "b", u64(1)}}, false)
	want["a"], want["b"] = u64(10), u64(16)
	expectMerged(t, db, "after a flush", want)

	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	expectMerged(t, db, "after a compaction", want)
	mustClose(t, db)

	db = open(dir, "uint64add")
	defer mustClose(t, db)
	expectMerged(t, db, "after a reopen", want)
	applySteps(t, db, []mergeStep{{'m', "a", u64(5)}, {'m', "f", u64(9)}}, false)
	want["a"], want["f"] = u64(15), u64(9)
	expectMerged(t, db, "merged after a reopen", want)
}

func testMergeStringAppend(t *testing.T, open MergeOpenFunc, operands bool) {
	dir := t.TempDir()
	db := open(dir, "stringappend")
	defer mustClose(t, db)
	applySteps(t, db, []mergeStep{
		{'m', "x", "a"}, {'m', "x", "b"}, {'m', "x", "c"},
		{'p', "y", "p"}, {'m', "y", "q"},
		{'p', "z", ""}, {'m', "z", "s"},
	}, false)
	want := map[string]string{"x": "a,b,c", "y": "p,q", "z": ",s"}
	expectMerged(t, db, "memtable", want)
	expectOperands(t, db, operands, "x", []string{"a", "b", "c"})
	expectOperands(t, db, operands, "y", []string{"p", "q"})
	if err := db.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	long := strings.Repeat("L", 300)
	applySteps(t, db, []mergeStep{{'m', "y", "r"}, {'m', "x", long}}, true)
	want["y"], want["x"] = "p,q,r", "a,b,c,"+long
	expectMerged(t, db, "after a flush", want)
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	expectMerged(t, db, "after a compaction", want)
}
