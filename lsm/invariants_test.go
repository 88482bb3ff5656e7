//go:build invariants || race

package lsm

import (
	"testing"

	"github.com/godbbench/godbbench/internal/invariants/invariantstest"
)

// TestInvariantCompactionInputOrder feeds a flush/compaction stream whose
// second entry is a newer version of the same key (internal order wants
// newest first), then one with a smaller key.
func TestInvariantCompactionInputOrder(t *testing.T) {
	for _, src := range []*sliceIter{
		{keys: []string{"a", "a"}, seqs: []uint64{3, 5}},
		{keys: []string{"b", "a"}, seqs: []uint64{3, 9}},
	} {
		ci := compactionIter{src: newMergingIter([]internalIter{src})}
		if !ci.First() {
			t.Fatal("empty stream")
		}
		invariantstest.Fires(t, "does not sort after", func() { ci.Next() })
	}
	ok := compactionIter{src: newMergingIter([]internalIter{&sliceIter{keys: []string{"a", "a", "b"}, seqs: []uint64{5, 3, 9}}})}
	n := 0
	for valid := ok.First(); valid; valid = ok.Next() {
		n++
	}
	if n != 2 { // ("a", 3) is shadowed by ("a", 5)
		t.Fatalf("an ordered stream gave %d entries, want 2", n)
	}
}

// TestInvariantCommitSequence rewinds the DB's sequence counter, as a bug
// in assignment would, so the next commit group would publish a sequence
// below the visible one.
func TestInvariantCommitSequence(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	put(t, db, "a", "1")
	put(t, db, "b", "2")
	db.mu.Lock()
	// The first logged record started making the next WAL in the
	// background (walnext.go); wait for its file, so that nothing is
	// created in the directory after the test ends.
	for db.mu.nextWAL.making {
		db.bgCond.Wait()
	}
	db.mu.lastSeq = 0
	db.mu.Unlock()
	// The failed leader leaves the write queue blocked, so the DB is
	// abandoned rather than closed.
	invariantstest.Fires(t, "not above the visible", func() { put(t, db, "c", "3") })
}

// TestInvariantRefCounts releases each counted object once more than it
// was referenced, and references a released version and memtable.
func TestInvariantRefCounts(t *testing.T) {
	v := &version{num: 4}
	v.ref()
	v.unref()
	invariantstest.Fires(t, "version 4 referenced after its release", v.ref)
	v2 := &version{num: 5}
	v2.refs.Store(1)
	v2.unref()
	invariantstest.Fires(t, "version 5 released more often than referenced", v2.unref)

	m := &memTable{id: 6}
	m.refs.Store(1)
	m.unref()
	invariantstest.Fires(t, "memtable 6 released more often than referenced", m.unref)
	invariantstest.Fires(t, "memtable 6 referenced after its release", m.ref)

	rv := &version{num: 7}
	rv.ref()
	rm := &memTable{id: 8}
	rm.refs.Store(1)
	rs := &readState{mem: rm, v: rv}
	rs.refs.Store(1)
	rs.unref()
	invariantstest.Fires(t, "read state of version 7 released more often than referenced", rs.unref)

	f := &fileMeta{num: 9}
	f.refs.Store(1)
	if !f.unref() {
		t.Fatal("the last reference to a table did not report it")
	}
	invariantstest.Fires(t, "table 9 released more often than referenced", func() { f.unref() })
}

// TestInvariantDoubleClose closes an iterator and the DB twice.
func TestInvariantDoubleClose(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	put(t, db, "a", "1")
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	invariantstest.Fires(t, "iterator closed twice", func() { it.Close() })
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	invariantstest.Fires(t, "database closed twice", func() { db.Close() })
}
