package lsm

import (
	"fmt"
	"testing"
)

// TestFamilyMetrics: each family's metrics show its own tables, memtable
// and flushes, none of another family's; ResetStats clears every
// family's flush counts.
func TestFamilyMetrics(t *testing.T) {
	db, handles := openFamilies(t, t.TempDir())
	defer db.Close()
	b := NewBatch()
	for i := range 100 {
		b.PutCF(handles[1].ID(), []byte(fmt.Sprintf("k%03d", i)), []byte("v"))
	}
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	put(t, db, "default-only", "v")
	first, err := handles[1].Metrics()
	if err != nil {
		t.Fatal(err)
	}
	def, err := db.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	second, err := handles[2].Metrics()
	if err != nil {
		t.Fatal(err)
	}
	if first.Levels[0].Files != 1 || first.Flushes.Count != 1 || first.Levels[0].Compactions.Count != 1 || first.ActiveMemtable.Entries != 0 {
		t.Errorf("first: %d L0 files, %d flushes (L0 row %d), %d memtable entries; want 1, 1 (1), 0",
			first.Levels[0].Files, first.Flushes.Count, first.Levels[0].Compactions.Count, first.ActiveMemtable.Entries)
	}
	if def.Levels[0].Files != 0 || def.Flushes.Count != 0 || def.ActiveMemtable.Entries != 1 {
		t.Errorf("default: %d L0 files, %d flushes, %d memtable entries; want 0, 0, 1",
			def.Levels[0].Files, def.Flushes.Count, def.ActiveMemtable.Entries)
	}
	if second.Levels[0].Files != 0 || second.Flushes.Count != 0 || second.ActiveMemtable.Entries != 0 {
		t.Errorf("second: %d L0 files, %d flushes, %d memtable entries; want none",
			second.Levels[0].Files, second.Flushes.Count, second.ActiveMemtable.Entries)
	}
	if def.Writes.Keys != 101 || first.Writes.Keys != 101 {
		t.Errorf("write counts %d (default) and %d (first), want the DB's 101 in both", def.Writes.Keys, first.Writes.Keys)
	}
	if err := db.ResetStats(); err != nil {
		t.Fatal(err)
	}
	if first, err = handles[1].Metrics(); err != nil || first.Flushes.Count != 0 || first.Levels[0].Files != 1 {
		t.Errorf("first after ResetStats: %d flushes, %d L0 files (%v); want 0, 1", first.Flushes.Count, first.Levels[0].Files, err)
	}
}
