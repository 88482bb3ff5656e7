package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/options"
)

func TestLevelTargets(t *testing.T) {
	o := options.Default()
	o.MaxBytesForLevelMultiplierAdditional = []int{1, 2, 1, 1, 1, 1, 1}
	o.TargetFileSizeMultiplier = 2
	db := &DB{opts: o, numLevels: 7, def: newFamily(0, defaultFamilyName, 7)}
	if got := db.maxBytesForLevel(1); got != 256<<20 {
		t.Fatalf("L1 target %v", got)
	}
	if got := db.maxBytesForLevel(2); got != 256<<20*10*2 {
		t.Fatalf("L2 target %v", got)
	}
	if got := db.maxBytesForLevel(3); got != 256<<20*10*2*10 {
		t.Fatalf("L3 target %v", got)
	}
	if got := db.targetFileSize(1); got != 64<<20 {
		t.Fatalf("L1 file size %v", got)
	}
	if got := db.targetFileSize(3); got != 256<<20 {
		t.Fatalf("L3 file size %v", got)
	}
	o.MaxBackgroundJobs = 2
	if got := db.maxCompactions(); got != 1 {
		t.Fatalf("compactions for 2 jobs: %d", got)
	}
	o.MaxBackgroundJobs = 8
	if got := db.maxCompactions(); got != 6 {
		t.Fatalf("compactions for 8 jobs: %d", got)
	}
}

func TestPickCompaction(t *testing.T) {
	o := options.Default()
	db := &DB{opts: o, numLevels: 4, def: newFamily(0, defaultFamilyName, 4)}
	f := func(num uint64, lo, hi string, size uint64) *fileMeta {
		return &fileMeta{num: num, smallest: []byte(lo), largest: []byte(hi), size: size, largestSeq: num}
	}
	v := &version{levels: [][]*fileMeta{
		{f(10, "a", "c", 1), f(11, "b", "d", 1), f(12, "a", "z", 1), f(13, "m", "n", 1)},
		{f(1, "a", "b", 1), f(2, "x", "y", 1)},
		{}, {f(3, "a", "z", 1)},
	}}
	sortLevel(0, v.levels[0])
	db.def.current = v
	c := db.pickCompaction()
	if c == nil || c.level != 0 || len(c.inputs[0]) != 4 || len(c.inputs[1]) != 2 || c.bottommost {
		t.Fatalf("picked %+v", c)
	}
	// L0 is busy now: nothing else can be picked from it.
	if c2 := db.pickCompaction(); c2 != nil {
		t.Fatalf("second pick %+v", c2)
	}
	c.markCompacting(false)
	// A lone file with no overlap below moves trivially.
	v.levels[0] = nil
	v.levels[1] = []*fileMeta{f(1, "a", "b", 300<<20)}
	v.levels[2] = nil
	v.levels[3] = nil
	c = db.pickCompaction()
	if c == nil || c.level != 1 || !c.trivialMove || !c.bottommost {
		t.Fatalf("picked %+v", c)
	}
	c.markCompacting(false)
	// Disjoint L0 files with nothing below them move together; one more
	// that overlaps another makes it a merge.
	v.levels[0] = []*fileMeta{f(20, "e", "f", 1), f(21, "a", "b", 1), f(22, "c", "d", 1), f(23, "g", "h", 1)}
	sortLevel(0, v.levels[0])
	v.levels[1] = []*fileMeta{f(1, "x", "y", 1)}
	c = db.pickCompaction()
	if c == nil || c.level != 0 || len(c.inputs[0]) != 4 || len(c.inputs[1]) != 0 || !c.trivialMove {
		t.Fatalf("picked %+v", c)
	}
	c.markCompacting(false)
	v.levels[0] = append(v.levels[0], f(24, "b", "c", 1))
	sortLevel(0, v.levels[0])
	c = db.pickCompaction()
	if c == nil || c.level != 0 || len(c.inputs[0]) != 5 || c.trivialMove {
		t.Fatalf("picked %+v", c)
	}
}

// TestCompactionDoesNotFillCache flushes two overlapping tables and compacts
// them: the compaction reads every block of both, yet the block cache must
// stay as empty as the writes left it (RocksDB reads compaction inputs with
// fill_cache off), and a scan afterwards fills it as usual.
func TestCompactionDoesNotFillCache(t *testing.T) {
	o := testOptions()
	o.CacheSize = 64 << 20
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	for round := 0; round < 2; round++ {
		for i := 0; i < 3000; i++ {
			put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value %d of round %d", i, round))
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	usage := func() uint64 {
		m, err := db.Metrics()
		if err != nil {
			t.Fatal(err)
		}
		return m.BlockCache.Usage
	}
	before := usage()
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if after := usage(); after != before {
		t.Fatalf("block cache usage %d after the compaction, %d before", after, before)
	}
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	if err := it.Close(); err != nil || n != 3000 {
		t.Fatalf("scan: %d keys, %v", n, err)
	}
	if usage() == before {
		t.Fatal("a scan left the block cache as it was")
	}
}
