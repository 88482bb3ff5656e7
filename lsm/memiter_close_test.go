package lsm

import (
	"fmt"
	"testing"
)

// registrationCounter is implemented by reps whose iterators hold an epoch
// registration until they are closed (cspp).
type registrationCounter interface{ Registrations() int }

// TestMemIterClosed: with the cspp memtable, whose iterators hold a
// registration while valid until closed, a Get that walks a key's merge
// operands (and stops at the next key, leaving its pooled iterator valid)
// and a DB iterator closed in the middle of a scan leave no memtable
// iterator holding one.
func TestMemIterClosed(t *testing.T) {
	o := testOptions()
	o.Memtablerep = "cspp"
	db := openWithMerge(t, t.TempDir(), o, "stringappendtest")
	defer db.Close()
	for i := 0; i < 300; i++ {
		merge(t, db, fmt.Sprintf("k%03d", i%50), "x")
	}
	held := func(op string) {
		t.Helper()
		rs := db.def.reads.get()
		defer rs.unref()
		for _, m := range append([]*memTable{rs.mem}, rs.imm...) {
			r, ok := m.rep.(registrationCounter)
			if !ok {
				t.Fatalf("memtable rep %T counts no registrations", m.rep)
			}
			if n := r.Registrations(); n != 0 {
				t.Fatalf("after %s: %d memtable iterators still hold a registration", op, n)
			}
		}
	}
	// From the last key down, so that no walk but the first runs off the
	// end (which would let go without a Close).
	for i := 49; i >= 0; i-- {
		found, err := db.Get([]byte(fmt.Sprintf("k%03d", i)), nil)
		if err != nil || !found {
			t.Fatalf("Get(k%03d) = %v, %v", i, found, err)
		}
	}
	held("Gets of merge operands")
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !it.First() || !it.Next() || !it.Next() {
		t.Fatal("short scan")
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	held("an iterator closed in the middle of a scan")
}
