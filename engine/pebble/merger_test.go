package pebble

import (
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/mergeop"
)

// mergeWith feeds a pebble ValueMerger the way Pebble does: first the
// operand it starts from, then the others newer (forward) or older
// (backward), and returns Finish's value.
func mergeWith(t *testing.T, name string, first string, rest []string, older, includesBase bool) string {
	t.Helper()
	op, err := mergeop.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	vm, err := newMerger(op, op.Name()).Merge([]byte("k"), []byte(first))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rest {
		if older {
			err = vm.MergeOlder([]byte(v))
		} else {
			err = vm.MergeNewer([]byte(v))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	out, closer, err := vm.Finish(includesBase)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if closer != nil {
		closer.Close()
	}
	return s
}

// TestValueMergerOrder: operands come oldest first to the operator
// whichever way Pebble feeds them, and a compaction's partial result
// (includesBase false) is one operand that merges later as the operands
// it stands for: PartialMerge where the operator has one, FullMerge with
// no existing value where it declines (stringappendtest, sortlist).
func TestValueMergerOrder(t *testing.T) {
	for _, c := range []struct {
		op           string
		includesBase bool
		want         string
	}{
		{"stringappend", true, "a,b,c"},
		{"stringappend", false, "a,b,c"},
		{"stringappendtest", false, "a,b,c"},
		{"put", true, "c"},
		{"put", false, "c"},
		{"max", false, "c"},
	} {
		if got := mergeWith(t, c.op, "a", []string{"b", "c"}, false, c.includesBase); got != c.want {
			t.Errorf("%s newer, includesBase %v: %q, want %q", c.op, c.includesBase, got, c.want)
		}
		if got := mergeWith(t, c.op, "c", []string{"b", "a"}, true, c.includesBase); got != c.want {
			t.Errorf("%s older, includesBase %v: %q, want %q", c.op, c.includesBase, got, c.want)
		}
	}
	if got := mergeWith(t, "sortlist", "5,9", []string{"1,7", "3"}, false, false); got != "1,3,5,7,9" {
		t.Errorf("sortlist partial: %q", got)
	}
	sum := func(n uint64) string { return string(binary.LittleEndian.AppendUint64(nil, n)) }
	if got := mergeWith(t, "uint64add", sum(1), []string{sum(2), sum(40)}, true, false); got != sum(43) {
		t.Errorf("uint64add partial: %x", got)
	}
	if got := mergeWith(t, "stringappend", "only", nil, false, false); got != "only" {
		t.Errorf("one operand, includesBase false: %q", got)
	}
}

// TestMergerWithoutOperator: reading merge operands with no operator fails
// in RocksDB's words.
func TestMergerWithoutOperator(t *testing.T) {
	if _, err := newMerger(nil, "nullptr").Merge([]byte("k"), []byte("v")); err != errMergeOperatorNotInitialized {
		t.Fatalf("Merge with no operator: %v", err)
	}
}

// TestReopenWithOtherMergeOperator: as with RocksDB, a database opens with
// any merge operator or none, whatever it was created with (benchmark.sh
// loads without one, then merges with put), and the operator of the open
// is the one that merges.
func TestReopenWithOtherMergeOperator(t *testing.T) {
	dir := t.TempDir()
	open := func(op string) *DB {
		t.Helper()
		o := testOptions()
		o.MergeOperator = op
		d, err := Opener{}.Open(dir, o, nil)
		if err != nil {
			t.Fatalf("open with %q: %v", op, err)
		}
		return d.(*DB)
	}
	d := open("")
	if err := d.Put([]byte("a"), []byte("x"), nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	d = open("stringappend")
	for _, v := range []string{"y", "z"} {
		if err := d.Merge([]byte("a"), []byte(v), nil); err != nil {
			t.Fatal(err)
		}
	}
	expectValue(t, d, "a", "x,y,z")
	d.Close()
	d = open("max")
	if err := d.Merge([]byte("b"), []byte("q"), nil); err != nil {
		t.Fatal(err)
	}
	expectValue(t, d, "b", "q")
	d.Close()
	d = open("")
	defer d.Close()
	if err := d.Merge([]byte("a"), []byte("v"), nil); err == nil || err.Error() != engine.ErrNoMergeOperator.Error() {
		t.Errorf("Merge without an operator: %v", err)
	}
}

func expectValue(t *testing.T, d *DB, key, want string) {
	t.Helper()
	var v string
	found, err := d.Get([]byte(key), func(b []byte) { v = string(b) })
	if err != nil || !found || v != want {
		t.Errorf("Get(%q): %q found %v err %v, want %q", key, v, found, err, want)
	}
}
