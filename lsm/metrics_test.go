package lsm

import (
	"fmt"
	"testing"
)

// levelFiles returns the number of files in each level.
func levelFiles(t *testing.T, db *DB) []int {
	t.Helper()
	m, err := db.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	n := make([]int, len(m.Levels))
	for i := range m.Levels {
		n[i] = m.Levels[i].Files
	}
	return n
}

// TestMetricsFollowTheWork checks the figures after writes, a flush and a
// manual compaction against what the test did.
func TestMetricsFollowTheWork(t *testing.T) {
	o := testOptions()
	o.DisableAutoCompactions = true
	db := mustOpen(t, t.TempDir(), o)
	defer func() {
		if _, err := db.Metrics(); err == nil {
			db.Close() // unless the test got to its own Close
		}
	}()
	for i := range 3000 {
		put(t, db, fmt.Sprintf("key%06d", i), "some value bytes")
	}
	m, err := db.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	if w := m.Writes; w.Writes != 3000 || w.Keys != 3000 || w.WALWrites != 3000 || w.CommitGroups == 0 || w.Bytes == 0 {
		t.Fatalf("writes: %+v", w)
	}
	mem := m.ActiveMemtable.Entries + m.ImmutableMemtables.Entries
	if m.ActiveMemtable.Count != 1 || mem == 0 || m.ActiveMemtable.Size == 0 {
		t.Fatalf("memtables: %+v %+v", m.ActiveMemtable, m.ImmutableMemtables)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	m, err = db.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	if m.ActiveMemtable.Entries != 0 || m.ImmutableMemtables.Count != 0 {
		t.Fatalf("memtables after compaction: %+v %+v", m.ActiveMemtable, m.ImmutableMemtables)
	}
	if m.Flushes.Count == 0 || m.Flushes != m.Levels[0].Compactions {
		t.Fatalf("flushes %+v, L0 %+v", m.Flushes, m.Levels[0].Compactions)
	}
	var keys, files, bytes uint64
	for level, l := range m.Levels {
		keys += l.EstimatedKeys
		files += uint64(l.Files)
		bytes += l.Size
		if level > 0 && l.Compactions.Count > 0 && (l.Compactions.KeysIn != 3000 || l.Compactions.WrittenBytes == 0) {
			t.Fatalf("level %d compactions: %+v", level, l.Compactions)
		}
	}
	if keys != 3000 || files == 0 || m.Levels[0].Files != 0 {
		t.Fatalf("%d keys in %d files, %d in L0", keys, files, m.Levels[0].Files)
	}
	version, tables, err := db.Tables()
	if err != nil {
		t.Fatal(err)
	}
	var listed, listedBytes uint64
	for _, ts := range tables {
		for _, tb := range ts {
			listed++
			listedBytes += tb.Size
		}
	}
	if version == 0 || listed != files || listedBytes != bytes {
		t.Fatalf("Tables: version %d, %d files of %d bytes; Metrics: %d of %d", version, listed, listedBytes, files, bytes)
	}
	if err := db.ResetStats(); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.Metrics(); m.Writes != (WriteMetrics{}) || m.Flushes.Count != 0 {
		t.Fatalf("after ResetStats: %+v", m.Writes)
	}
	db.Close()
	if _, err := db.Metrics(); err != ErrClosed {
		t.Fatalf("Metrics after Close: %v", err)
	}
	if _, _, err := db.Tables(); err != ErrClosed {
		t.Fatalf("Tables after Close: %v", err)
	}
}
