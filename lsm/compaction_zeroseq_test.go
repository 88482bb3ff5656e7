package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/rtable"
)

// TestBottommostRTableAtSequenceZero checks compactionIter.zeroSeqs: a
// bottommost compaction into rtable tables writes every value at sequence
// 0, so each table has one trailer (rtable.Reader.Uniform); with a
// snapshot older than some values, those keep their sequences (the tables
// are not uniform) and the snapshot still reads what it read before; the
// block format keeps every sequence.
func TestBottommostRTableAtSequenceZero(t *testing.T) {
	for _, format := range []string{options.TableFormatRTable, options.TableFormatBlock} {
		t.Run(format, func(t *testing.T) {
			o := testOptions()
			o.TableFormat = format
			db := mustOpen(t, t.TempDir(), o)
			defer db.Close()
			const n = 2000
			key := func(i int) string { return fmt.Sprintf("key%06d", i) }
			for i := range n {
				put(t, db, key(i), fmt.Sprintf("a%d", i))
			}
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
			zeroed, tables := uniformTables(t, db)
			if want := format == options.TableFormatRTable; tables == 0 || (zeroed == tables) != want || (zeroed == 0) == want {
				t.Fatalf("%d of %d tables have every entry at sequence 0; want all: %v", zeroed, tables, want)
			}

			snap := db.NewSnapshot()
			defer snap.Release()
			for i := 0; i < n; i += 2 {
				put(t, db, key(i), fmt.Sprintf("b%d", i))
			}
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
			if zeroed, tables := uniformTables(t, db); zeroed == tables {
				t.Fatalf("with a snapshot under newer values, %d of %d tables have every entry at sequence 0", zeroed, tables)
			}
			for i := range n {
				want, wantSnap := fmt.Sprintf("a%d", i), fmt.Sprintf("a%d", i)
				if i%2 == 0 {
					want = fmt.Sprintf("b%d", i)
				}
				var got, gotSnap string
				found, err := db.get(db.def, []byte(key(i)), latestSeq, func(v []byte) { got = string(v) })
				foundSnap, errSnap := db.get(db.def, []byte(key(i)), snap.seq, func(v []byte) { gotSnap = string(v) })
				if !found || err != nil || got != want || !foundSnap || errSnap != nil || gotSnap != wantSnap {
					t.Fatalf("%s: %q (%v, %v) and at the snapshot %q (%v, %v); want %q and %q", key(i), got, found, err, gotSnap, foundSnap, errSnap, want, wantSnap)
				}
			}
		})
	}
}

// uniformTables counts the tables of db's current version and those that
// are rtable tables with one trailer, a value at sequence 0.
func uniformTables(t *testing.T, db *DB) (zeroed, tables int) {
	t.Helper()
	db.mu.Lock()
	v := db.def.current
	db.mu.Unlock()
	for _, files := range v.levels {
		for _, f := range files {
			tr, err := db.tableReader(f)
			if err != nil {
				t.Fatal(err)
			}
			tables++
			if r, ok := tr.tableReader.(*rtable.Reader); ok {
				if trailer, _, ok := r.Uniform(); ok && trailer == base.MakeTrailer(0, base.KindSet) {
					zeroed++
				}
			}
		}
	}
	return zeroed, tables
}

// TestZeroedTablesKeepTheirSequenceRange: a table whose entries a
// bottommost compaction wrote at sequence 0 still records the sequences
// those writes had, in its properties and in the version. An open that
// finds a table in no version (a MANIFEST that lost the edit adding it)
// tells an obsolete table from a lost one by that range; at 0..0 it would
// delete a live table as obsolete.
func TestZeroedTablesKeepTheirSequenceRange(t *testing.T) {
	o := testOptions()
	o.TableFormat = options.TableFormatRTable
	dir := t.TempDir()
	db := mustOpen(t, dir, o)
	defer db.Close()
	const n = 500
	for i := range n {
		put(t, db, fmt.Sprintf("key%06d", i), "v")
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if zeroed, tables := uniformTables(t, db); zeroed == 0 || zeroed != tables {
		t.Fatalf("%d of %d tables at sequence 0: the test checks nothing", zeroed, tables)
	}
	db.mu.Lock()
	v := db.def.current
	db.mu.Unlock()
	largest := uint64(0)
	for _, files := range v.levels {
		for _, f := range files {
			props, ok := db.tableSeqs(tableName(dir, f.num))
			if !ok {
				t.Fatalf("table %d: properties do not decode", f.num)
			}
			if props.largestSeq != f.largestSeq || props.largestSeq == 0 {
				t.Fatalf("table %d: properties say sequences up to %d, the version %d; want the writes' own", f.num, props.largestSeq, f.largestSeq)
			}
			largest = max(largest, f.largestSeq)
		}
	}
	if largest != n {
		t.Fatalf("tables cover sequences up to %d, want %d", largest, n)
	}
}
