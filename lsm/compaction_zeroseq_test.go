package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/rtable"
)

// TestBottommostAtSequenceZero checks compactionIter.zeroSeqs in both
// table formats: a bottommost compaction writes every value at sequence
// 0 (an rtable table then has one trailer for all, rtable.Reader.Uniform);
// with a snapshot older than some values, those keep their sequences and
// the snapshot still reads what it read before.
func TestBottommostAtSequenceZero(t *testing.T) {
	for _, format := range []string{options.TableFormatRTable, options.TableFormatBlock} {
		t.Run(format, func(t *testing.T) {
			o := testOptions()
			o.TableFormat = format
			// No table reaches L1 by a move, which would keep its
			// sequences: the manual compaction rewrites them all.
			o.DisableAutoCompactions = true
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
			if zeroed, tables := zeroedTables(t, db); tables == 0 || zeroed != tables {
				t.Fatalf("%d of %d tables have every entry at sequence 0; want all", zeroed, tables)
			}
			if format == options.TableFormatRTable {
				if uniform, tables := uniformTables(t, db); uniform != tables {
					t.Fatalf("%d of %d rtable tables have one trailer; want all", uniform, tables)
				}
			}

			snap := db.NewSnapshot()
			defer snap.Release()
			for i := 0; i < n; i += 2 {
				put(t, db, key(i), fmt.Sprintf("b%d", i))
			}
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
			if zeroed, tables := zeroedTables(t, db); zeroed == tables {
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

// zeroedTables counts the tables of db's current version and those whose
// every entry is at sequence 0, in either format.
func zeroedTables(t *testing.T, db *DB) (zeroed, tables int) {
	t.Helper()
	eachTable(t, db, func(_ *fileMeta, tr *openTable) {
		tables++
		it := newTableIter(tr, tableIterOptions{keysOnly: true})
		defer it.Close()
		all := true
		for ok := it.First(); ok && all; ok = it.Next() {
			all = it.Seq() == 0
		}
		if err := it.Error(); err != nil {
			t.Fatal(err)
		}
		if all {
			zeroed++
		}
	})
	return zeroed, tables
}

// uniformTables counts the rtable tables of db's current version and
// those with one trailer, a value at sequence 0.
func uniformTables(t *testing.T, db *DB) (uniform, tables int) {
	t.Helper()
	eachTable(t, db, func(_ *fileMeta, tr *openTable) {
		r, ok := tr.tableReader.(*rtable.Reader)
		if !ok {
			return
		}
		tables++
		if trailer, _, ok := r.Uniform(); ok && trailer == base.MakeTrailer(0, base.KindSet) {
			uniform++
		}
	})
	return uniform, tables
}

// TestZeroedTablesKeepTheirSequenceRange: a table whose entries a
// bottommost compaction wrote at sequence 0 still records the sequences
// those writes had, in its properties and in the version. An open that
// finds a table in no version (a MANIFEST that lost the edit adding it)
// tells an obsolete table from a lost one by that range; at 0..0 it would
// delete a live table as obsolete.
func TestZeroedTablesKeepTheirSequenceRange(t *testing.T) {
	for _, format := range []string{options.TableFormatRTable, options.TableFormatBlock} {
		t.Run(format, func(t *testing.T) { testZeroedTablesKeepTheirSequenceRange(t, format) })
	}
}

func testZeroedTablesKeepTheirSequenceRange(t *testing.T, format string) {
	o := testOptions()
	o.TableFormat = format
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
	if zeroed, tables := zeroedTables(t, db); zeroed == 0 || zeroed != tables {
		t.Fatalf("%d of %d tables at sequence 0: the test checks nothing", zeroed, tables)
	}
	db.mu.Lock()
	v := db.def.current
	db.mu.Unlock()
	largest := uint64(0)
	for _, files := range v.levels {
		for _, f := range files {
			props, ok := db.tableSeqs(tableName(dir, f.num), f.num)
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
