package lsm

import (
	"fmt"
	"strings"
	"testing"
)

// openFamiliesReadOnly opens dir read-only with families names.
func openFamiliesReadOnly(t *testing.T, dir string, names []string) (*DB, []*ColumnFamily) {
	t.Helper()
	return openFamiliesWith(t, dir, readOnlyOptions(), Config{ColumnFamilies: names})
}

// TestReadOnlyFamilies: a read-only open of a DB with families loads each
// family's tables and its WAL records into its own memtables, several
// when its records outgrow the write buffer, with a delete in the WAL
// hiding a key in a table; opened with a subset of the families, it
// serves those and no other. No file changes.
func TestReadOnlyFamilies(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.WriteBufferSize = 8 << 20 // everything after the flush stays in the WAL
	db, err := Open(dir, o, Config{ColumnFamilies: familyNamesForTest})
	if err != nil {
		t.Fatal(err)
	}
	handles := []*ColumnFamily{db.ColumnFamily(defaultFamilyName), db.ColumnFamily("first"), db.ColumnFamily("second")}
	model := familyModel{{}, {}, {}}
	write := func(fam int, k, v string) {
		b := NewBatch()
		if v == "" {
			b.DeleteCF(handles[fam].ID(), []byte(k))
			delete(model[fam], k)
		} else {
			b.PutCF(handles[fam].ID(), []byte(k), []byte(v))
			model[fam][k] = v
		}
		if err := db.Write(b, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for fam := range 3 {
		for i := range 20 {
			write(fam, fmt.Sprintf("t%03d", i), fmt.Sprintf("table %d %d", fam, i))
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	value := strings.Repeat("w", 1000)
	for i := range 300 { // 300 KB: several 64 KiB memtables on a read-only open
		write(2, fmt.Sprintf("w%04d", i), value)
		if i%10 == 0 {
			write(i%20/10, fmt.Sprintf("w%04d", i), value)
		}
	}
	write(1, "t000", "")
	write(2, "t001", "")
	write(0, "t002", "overwritten in the WAL")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := dirListing(t, dir)

	db, handles = openFamiliesReadOnly(t, dir, familyNamesForTest)
	model.check(t, handles, "read-only")
	db.mu.Lock()
	imm := len(handles[2].f.imm)
	db.mu.Unlock()
	if imm == 0 {
		t.Error("300 KB of WAL records of one family loaded into one memtable of 64 KiB")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, handles = openFamiliesReadOnly(t, dir, []string{"second"})
	familyModel{model[0], model[2]}.check(t, handles, "read-only, second alone")
	if db.ColumnFamily("first") != nil {
		t.Error("a family not named is open")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if after := dirListing(t, dir); after != before {
		t.Fatalf("read-only opens changed the directory from %s to %s", before, after)
	}
}
