package lsm

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/mergeop"
)

// TestRecoveryStoppedKeepsFamilyLogNumbers: a family that holds the oldest
// WAL (one write, never flushed) beside a default family flushed several
// times keeps every WAL; a recovery of that crash image stopped after each
// of its file-system changes in turn, then an open, must count every merge
// operand once. A recovery that recorded the next WAL's number for every
// family (lowering the default's) left an open after the stop replaying
// operands the default's tables already held: the counter came back
// higher than the merges written.
func TestRecoveryStoppedKeepsFamilyLogNumbers(t *testing.T) {
	op, err := mergeop.Lookup("uint64add")
	if err != nil {
		t.Fatal(err)
	}
	o := testOptions()
	cfg := Config{Version: "test", ColumnFamilies: familyNamesForTest, MergeOperator: op}
	src := t.TempDir()
	db, handles := openFamiliesWith(t, src, o, cfg)
	held := NewBatch()
	held.PutCF(handles[1].ID(), []byte("held"), []byte("1"))
	if err := db.Write(held, WriteOptions{Sync: true}); err != nil {
		t.Fatal(err)
	}
	const merges = 900
	one := binary.LittleEndian.AppendUint64(nil, 1)
	pad := strings.Repeat("p", 200)
	for i := range merges {
		b := NewBatch()
		b.Merge([]byte("counter"), one)
		b.Put([]byte(fmt.Sprintf("pad%05d", i)), []byte(pad))
		if err := db.Write(b, WriteOptions{Sync: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	img := t.TempDir()
	copyDir(t, src, img) // the crash image: the DB still open
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(filesOf(t, img, fileWAL)); n < 3 {
		t.Fatalf("%d WALs in the crash image, want 3 or more (the held family keeps them)", n)
	}
	check := func(dir, when string) {
		t.Helper()
		db, handles := openFamiliesWith(t, dir, o, cfg)
		defer db.Close()
		var got []byte
		found, err := db.Get([]byte("counter"), func(v []byte) { got = append(got[:0], v...) })
		if err != nil || !found || len(got) != 8 || binary.LittleEndian.Uint64(got) != merges {
			t.Fatalf("%s: counter % x (found %v, %v), want %d merges counted once", when, got, found, err, merges)
		}
		var v []byte
		if found, err := handles[1].Get([]byte("held"), func(b []byte) { v = append(v[:0], b...) }); err != nil || !found || string(v) != "1" {
			t.Fatalf("%s: family %s lost its write: %q %v %v", when, handles[1].Name(), v, found, err)
		}
	}
	count := newStopFS(1 << 40)
	probe := t.TempDir()
	copyDir(t, img, probe)
	withFS := cfg
	withFS.FS = count
	pdb, err := Open(probe, o, withFS)
	if err != nil {
		t.Fatal(err)
	}
	steps := count.n.Load()
	pdb.Close()
	check(probe, "after a whole recovery")
	stride := int64(1)
	if testing.Short() {
		stride = 3 // the window spans many changes
	}
	for limit := int64(0); limit < steps; limit += stride {
		dir := t.TempDir()
		copyDir(t, img, dir)
		withFS.FS = newStopFS(limit)
		if db, err := Open(dir, o, withFS); err == nil {
			db.Close()
		}
		check(dir, fmt.Sprintf("open after a recovery stopped at change %d of %d", limit, steps))
	}
}
