package lsm

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// formatCase is a table format that the table tests run over.
type formatCase struct {
	name   string
	format string // options.Options.TableFormat
}

var formatCases = []formatCase{
	{"block", options.TableFormatBlock},
	{"rtable", options.TableFormatRTable},
}

// with sets the case's table format on o and returns o.
func (c formatCase) with(o *options.Options) *options.Options {
	o.TableFormat = c.format
	return o
}

// skipInShort reports whether run i of a randomized test is skipped for
// this case under -short: the rtable case runs the first two (the race
// build's lsm tests run near their time limit on a loaded machine).
func (c formatCase) skipInShort(i int) bool {
	return testing.Short() && c.format != options.TableFormatBlock && i >= 2
}

// settle moves what a flush wrote to L0 down to where the format writes
// tables: a no-op for block, a full compaction for rtable (which L0 does
// not take).
func (c formatCase) settle(t testing.TB, db *DB) {
	t.Helper()
	if c.format == options.TableFormatBlock {
		return
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
}

// eachTable opens every table of db's current version, level by level,
// and calls fn with it.
func eachTable(t testing.TB, db *DB, fn func(f *fileMeta, tr *openTable)) {
	t.Helper()
	db.mu.Lock()
	v := db.def.current
	v.ref() // background compactions may retire its tables meanwhile
	db.mu.Unlock()
	defer v.unref()
	for _, files := range v.levels {
		for _, f := range files {
			tr, err := db.tableReader(f)
			if err != nil {
				t.Fatal(err)
			}
			fn(f, tr)
		}
	}
}

// tableFormatCounts opens every table of db's current version and counts
// them by the format their files have.
func tableFormatCounts(t testing.TB, db *DB) map[tableFormat]int {
	t.Helper()
	counts := map[tableFormat]int{}
	eachTable(t, db, func(_ *fileMeta, tr *openTable) { counts[tr.format]++ })
	return counts
}

// rtableRangeDelTables counts the rtable tables of db's current version
// that hold range tombstones.
func rtableRangeDelTables(t testing.TB, db *DB) int {
	t.Helper()
	n := 0
	eachTable(t, db, func(_ *fileMeta, tr *openTable) {
		if tr.format == formatRTable && !tr.rangeDels.Empty() {
			n++
		}
	})
	return n
}

// requireFormat fails unless db holds a table of the case's format, so
// that a test meant for it cannot pass over the other one.
func (c formatCase) requireFormat(t testing.TB, db *DB) {
	t.Helper()
	want := formatBlock
	if c.format == options.TableFormatRTable {
		want = formatRTable
	}
	if counts := tableFormatCounts(t, db); counts[want] == 0 {
		t.Fatalf("no %s table in the DB (tables by format: %v)", c.name, counts)
	}
}

// TestMixedTableFormats writes a DB with block tables, reopens it with
// rtable selected and writes and compacts part of it (so both formats sit
// side by side: the block tables below the rewritten range stay), then
// reopens it with block selected, overwrites keys of both formats and
// compacts again: every reopen reads back exactly what was written, and
// the format of each table is its file's, whatever the options say.
func TestMixedTableFormats(t *testing.T) {
	dir := t.TempDir()
	m := model{}
	o := layeredOptions()
	// Small tables, so that the compaction of the upper part of the key
	// space leaves the block tables of the lower part alone.
	o.TargetFileSizeBase = 4 << 10
	write := func(db *DB, from, to int, tag string) {
		for i := from; i < to; i++ {
			k, v := fmt.Sprintf("key%05d", i), fmt.Sprintf("%s-%d", tag, i)
			put(t, db, k, v)
			m[k] = v
		}
		for i := from; i < to; i += 7 {
			k := fmt.Sprintf("key%05d", i)
			del(t, db, k)
			delete(m, k)
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	check := func(db *DB, label string) {
		t.Helper()
		checkDB(t, db, m, nil, rand.New(rand.NewSource(1)), label)
	}
	reopen := func(db *DB, format string) *DB {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		o.TableFormat = format
		return mustOpen(t, dir, o)
	}

	db := mustOpen(t, dir, formatCases[0].with(o))
	write(db, 0, 2000, "a")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if c := tableFormatCounts(t, db); c[formatRTable] != 0 || c[formatBlock] == 0 {
		t.Fatalf("block DB: tables by format %v", c)
	}

	db = reopen(db, options.TableFormatRTable)
	check(db, "block tables read with rtable selected")
	write(db, 1500, 3000, "b")
	if err := db.Compact([]byte("key02500"), nil, -1); err != nil {
		t.Fatal(err)
	}
	if c := tableFormatCounts(t, db); c[formatRTable] == 0 || c[formatBlock] == 0 {
		t.Fatalf("mixed DB: tables by format %v", c)
	}
	// The compaction rewrote every table the "b" keys overlap, and no
	// other.
	eachTable(t, db, func(f *fileMeta, tr *openTable) {
		if (tr.format == formatBlock) != (string(f.largest) < "key01500") {
			t.Fatalf("mixed DB: table %d holds %s..%s in format %v", f.num, f.smallest, f.largest, tr.format)
		}
	})
	check(db, "mixed DB")

	db = reopen(db, options.TableFormatBlock)
	check(db, "mixed DB reopened with block selected")
	write(db, 1000, 3500, "c")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if c := tableFormatCounts(t, db); c[formatRTable] != 0 {
		t.Fatalf("after a full compaction with block selected: tables by format %v", c)
	}
	db = reopen(db, options.TableFormatBlock)
	check(db, "compacted back to block")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRTableBelowL0AfterSequentialFill fills keys in order, whose L0 tables
// never overlap and would move down unchanged: with rtable selected they
// must be rewritten instead, so that every table below L0 is an rtable
// table.
func TestRTableBelowL0AfterSequentialFill(t *testing.T) {
	o := formatCases[1].with(testOptions())
	o.WriteBufferSize = 64 << 10
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	for i := range 20000 {
		put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%06d", i))
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	db.mu.Lock()
	v := db.def.current
	db.mu.Unlock()
	below := 0
	for level := 1; level < len(v.levels); level++ {
		for _, f := range v.levels[level] {
			tr, err := db.tableReader(f)
			if err != nil {
				t.Fatal(err)
			}
			if tr.format != formatRTable {
				t.Fatalf("table %d at L%d is in the block format", f.num, level)
			}
			below++
		}
	}
	if below == 0 {
		t.Fatal("no table below L0")
	}
}

// TestMaintenanceOverBothFormats checks VerifyChecksum and ApproximateSize
// over tables of either format: an intact DB verifies, a flipped value
// byte is "Corruption: ...", and a range's approximate size grows with
// the range and costs no allocation.
func TestMaintenanceOverBothFormats(t *testing.T) {
	for _, fc := range formatCases {
		t.Run(fc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := mustOpen(t, dir, fc.with(testOptions()))
			defer db.Close()
			for i := range 2000 {
				put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%06d", i))
			}
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
			fc.settle(t, db)
			fc.requireFormat(t, db)
			if err := db.VerifyChecksum(); err != nil {
				t.Fatalf("intact DB: %v", err)
			}
			small, err := db.ApproximateSize([]byte("key000100"), []byte("key000200"))
			if err != nil {
				t.Fatal(err)
			}
			start, limit := []byte("key000100"), []byte("key001500")
			large, err := db.ApproximateSize(start, limit)
			if err != nil {
				t.Fatal(err)
			}
			if large <= small {
				t.Fatalf("ApproximateSize: %d for 1400 keys, %d for 100", large, small)
			}
			if !raceEnabled {
				if n := testing.AllocsPerRun(100, func() { db.ApproximateSize(start, limit) }); n != 0 {
					t.Errorf("ApproximateSize allocates %.1f times per call", n)
				}
			}
			flipByte(t, filesOf(t, dir, fileTable)[0], 40)
			if err := db.VerifyChecksum(); err == nil || !strings.HasPrefix(err.Error(), "Corruption: ") {
				t.Fatalf("damaged table: %v", err)
			}
		})
	}
}
