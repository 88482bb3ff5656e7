package lsm

import (
	"fmt"
	"testing"
)

// readCompactionDB opens a DB whose L0 holds three tables, each spanning
// the whole key range (keys k00000..k00299, every third key per table,
// the oldest table holding the keys divisible by three), with L0's size
// trigger far away so that only reads can make L0 compact. Its tables
// have no filter, so that every lookup in a table reads its data.
func readCompactionDB(t *testing.T, disable bool) *DB {
	t.Helper()
	return readCompactionDBWith(t, disable, 0)
}

// readCompactionDBWith is readCompactionDB with bloomBits bits per key in
// the tables' filters (0: none).
func readCompactionDBWith(t *testing.T, disable bool, bloomBits int) *DB {
	t.Helper()
	o := testOptions()
	o.BloomBits = bloomBits
	o.WriteBufferSize = 1 << 20
	o.Level0FileNumCompactionTrigger = 20
	o.Level0SlowdownWritesTrigger = 40
	o.Level0StopWritesTrigger = 50
	db, err := Open(t.TempDir(), o, Config{Version: "test", DisableReadCompactions: disable})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for table := range 3 {
		for i := table; i < 300; i += 3 {
			put(t, db, fmt.Sprintf("k%05d", i), "v")
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if got := levelFileCounts(db); got[0] != 3 || got[1] != 0 {
		t.Fatalf("setup: files per level %v, want 3 in L0", got)
	}
	return db
}

// levelFileCounts returns the number of tables in each level.
func levelFileCounts(db *DB) []int {
	db.mu.Lock()
	defer db.mu.Unlock()
	var n []int
	for _, files := range db.def.current.levels {
		n = append(n, len(files))
	}
	return n
}

// readCompactionsPicked returns how many read-triggered compactions ran.
func readCompactionsPicked(db *DB) uint64 {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.mu.readCompactions
}

// getMissingNewest reads keys of a readCompactionDB that its newest table
// does not hold (it holds those with i%3 == 2), twice the allowance of a
// small table, and waits for the compactions that follow.
func getMissingNewest(t *testing.T, db *DB) {
	t.Helper()
	for n := 0; n < 2*minReadAllowance; n++ {
		i := (n * 3) % 300
		if _, found := getString(t, db, fmt.Sprintf("k%05d", i)); !found {
			t.Fatalf("k%05d not found", i)
		}
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
}

// TestReadCompactionGetsMissingL0 reads keys that the newest L0 table does
// not hold: every Get probes it in vain, and once its allowance is spent
// L0 is compacted into L1. With the feature off the shape stays.
func TestReadCompactionGetsMissingL0(t *testing.T) {
	for _, disable := range []bool{false, true} {
		t.Run(fmt.Sprintf("disabled=%v", disable), func(t *testing.T) {
			db := readCompactionDB(t, disable)
			getMissingNewest(t, db)
			got := levelFileCounts(db)
			if disable {
				if got[0] != 3 || readCompactionsPicked(db) != 0 {
					t.Fatalf("disabled: files per level %v, %d read compactions", got, readCompactionsPicked(db))
				}
				return
			}
			if got[0] != 0 || got[1] == 0 || readCompactionsPicked(db) != 1 {
				t.Fatalf("files per level %v, %d read compactions; want L0 compacted into L1 once", got, readCompactionsPicked(db))
			}
			for i := 0; i < 300; i++ {
				if _, found := getString(t, db, fmt.Sprintf("k%05d", i)); !found {
					t.Fatalf("after the compaction: k%05d not found", i)
				}
			}
		})
	}
}

// TestReadCompactionNotForFilteredProbes: with bloom filters, the Gets of
// TestReadCompactionGetsMissingL0 learn from the newest table's filter
// that it lacks their keys, without reading its data: such a probe is
// not charged, and no read compaction follows.
func TestReadCompactionNotForFilteredProbes(t *testing.T) {
	db := readCompactionDBWith(t, false, 10)
	getMissingNewest(t, db)
	if got := levelFileCounts(db); got[0] != 3 || readCompactionsPicked(db) != 0 {
		t.Fatalf("files per level %v, %d read compactions; want the shape unchanged", got, readCompactionsPicked(db))
	}
}

// seekAcross seeks one iterator of db to keys k00000..k00299 in turn,
// twice the allowance of a small table, and waits for the compactions
// that follow.
func seekAcross(t *testing.T, db *DB) {
	t.Helper()
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 2*minReadAllowance; n++ {
		if !it.SeekGE([]byte(fmt.Sprintf("k%05d", n%300))) {
			t.Fatalf("seek %d: %v", n, it.Error())
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
}

// TestReadCompactionSeeks seeks into the key range of all three L0 tables:
// each seek charges the newest, and L0 compacts.
func TestReadCompactionSeeks(t *testing.T) {
	db := readCompactionDB(t, false)
	seekAcross(t, db)
	if got := levelFileCounts(db); got[0] != 0 || got[1] == 0 {
		t.Fatalf("files per level %v; want L0 compacted into L1", got)
	}
}

// TestReadCompactionSeeksBelowL0 seeks into the key range of a table of
// L1 and one of L2 (the even keys in L2, the odd ones in L1): each seek
// charges the L1 table, which its level iterator's own seek found, and
// it is compacted into L2.
func TestReadCompactionSeeksBelowL0(t *testing.T) {
	o := testOptions()
	o.BloomBits = 0
	o.Level0FileNumCompactionTrigger = 20
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	for _, level := range []int{2, 1} {
		for i := level % 2; i < 300; i += 2 {
			put(t, db, fmt.Sprintf("k%05d", i), "v")
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		files, err := db.LiveFiles()
		if err != nil {
			t.Fatal(err)
		}
		var l0 []uint64
		for _, f := range files {
			if f.Level == 0 {
				l0 = append(l0, f.Num)
			}
		}
		if err := db.CompactFiles(l0, level); err != nil {
			t.Fatal(err)
		}
	}
	if got := levelFileCounts(db); got[0] != 0 || got[1] != 1 || got[2] != 1 {
		t.Fatalf("setup: files per level %v, want one in L1 and one in L2", got)
	}
	seekAcross(t, db)
	if got := levelFileCounts(db); got[1] != 0 || got[2] == 0 || readCompactionsPicked(db) != 1 {
		t.Fatalf("files per level %v, %d read compactions; want L1 compacted into L2 once", got, readCompactionsPicked(db))
	}
}

// TestReadCompactionNotForHits reads only keys of the newest table, which
// every Get finds in the first table it probes, and keys outside every
// table's range: no table is charged and the shape stays.
func TestReadCompactionNotForHits(t *testing.T) {
	db := readCompactionDB(t, false)
	for n := 0; n < 4*minReadAllowance; n++ {
		i := (n*3 + 2) % 300
		if _, found := getString(t, db, fmt.Sprintf("k%05d", i)); !found {
			t.Fatalf("k%05d not found", i)
		}
		if _, found := getString(t, db, "z"); found {
			t.Fatal("z found")
		}
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	if got := levelFileCounts(db); got[0] != 3 || readCompactionsPicked(db) != 0 {
		t.Fatalf("files per level %v, %d read compactions; want the shape unchanged", got, readCompactionsPicked(db))
	}
}

// TestReadCompactionLowerLevel marks a table of L1 that overlaps L2: the
// picker compacts it alone into L2, and drops from the queue a table of
// the last level and one no version lists.
func TestReadCompactionLowerLevel(t *testing.T) {
	db := &DB{opts: testOptions(), numLevels: 3, def: newFamily(0, defaultFamilyName, 3)}
	f := func(num uint64, lo, hi string) *fileMeta {
		return &fileMeta{num: num, smallest: []byte(lo), largest: []byte(hi), size: 1, largestSeq: num}
	}
	l1a, l1b, l2, gone := f(1, "a", "c"), f(2, "d", "f"), f(3, "a", "z"), f(4, "a", "z")
	db.def.current = &version{levels: [][]*fileMeta{nil, {l1a, l1b}, {l2}}}
	db.mu.readMarked = []*fileMeta{gone, l2, l1b}
	c := db.pickCompaction()
	if c == nil || c.level != 1 || len(c.inputs[0]) != 1 || c.inputs[0][0] != l1b || len(c.inputs[1]) != 1 {
		t.Fatalf("picked %+v", c)
	}
	if len(db.mu.readMarked) != 0 {
		t.Fatalf("queue %d tables after the pick, want none", len(db.mu.readMarked))
	}
	// A table whose next level is compacting waits in the queue.
	db.mu.readMarked = []*fileMeta{l1a}
	if c := db.pickCompaction(); c != nil || len(db.mu.readMarked) != 1 {
		t.Fatalf("picked %+v with L2 busy; queue %d", c, len(db.mu.readMarked))
	}
}

// TestReadChargeOncePerTable: only the charge that reaches the allowance
// queues the table.
func TestReadChargeOncePerTable(t *testing.T) {
	o := testOptions()
	o.DisableAutoCompactions = true // the scheduler starts nothing
	db := &DB{opts: o, numLevels: 3, def: newFamily(0, defaultFamilyName, 3), readCompactions: true}
	f := &fileMeta{size: 1 << 30}
	want := readAllowance(f.size)
	if want != (1<<30)/readAllowanceBytes {
		t.Fatalf("allowance %d", want)
	}
	for range want + 10 {
		db.chargeRead(f)
	}
	if f.wastedReads.Load() != want+10 || len(db.mu.readMarked) != 1 || db.mu.readMarked[0] != f {
		t.Fatalf("charges %d, queue %d tables; want the table queued once", f.wastedReads.Load(), len(db.mu.readMarked))
	}
}

// TestReadChargeAllocatesNothing: Gets and seeks that charge tables
// allocate nothing.
func TestReadChargeAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	db := readCompactionDB(t, false)
	key := []byte("k00000")
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	// Fewer rounds than the allowance: the charge that queues the table
	// allocates, once per table.
	allocs := testing.AllocsPerRun(minReadAllowance/4, func() {
		if _, err := db.Get(key, nil); err != nil {
			t.Fatal(err)
		}
		it.SeekGE(key)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per Get and seek", allocs)
	}
}
