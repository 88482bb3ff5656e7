package lsm

import (
	"fmt"
	"strings"
	"testing"
)

func TestFilesByPriority(t *testing.T) {
	// Level 1: a [a,c] 100 bytes seqs 10-20, b [d,f] 300 bytes seqs 5-30,
	// c [g,i] 200 bytes seqs 1-25, d [j,l] 50 bytes seqs 8-9 (all
	// deletions: compensated upwards).
	l1 := []*fileMeta{
		{num: 1, size: 100, smallest: []byte("a"), largest: []byte("c"), smallestSeq: 10, largestSeq: 20, numEntries: 10},
		{num: 2, size: 300, smallest: []byte("d"), largest: []byte("f"), smallestSeq: 5, largestSeq: 30, numEntries: 10},
		{num: 3, size: 200, smallest: []byte("g"), largest: []byte("i"), smallestSeq: 1, largestSeq: 25, numEntries: 10},
		{num: 4, size: 50, smallest: []byte("j"), largest: []byte("l"), smallestSeq: 8, largestSeq: 9, numEntries: 10, numDeletions: 10},
	}
	// Level 2: [a,b] 1000 under table 1; [c,e] 600 under tables 1 and 2;
	// [h,h] 100 under table 3; nothing under table 4.
	l2 := []*fileMeta{
		{num: 5, size: 1000, smallest: []byte("a"), largest: []byte("b")},
		{num: 6, size: 600, smallest: []byte("c"), largest: []byte("e")},
		{num: 7, size: 100, smallest: []byte("h"), largest: []byte("h")},
	}
	v := &version{levels: [][]*fileMeta{nil, l1, l2}}
	for _, tc := range []struct {
		pri  int
		want string
	}{
		// Compensated: 4 is 50 + (20-10)*5*2 = 150.
		{priByCompensatedSize, "[2 3 4 1]"},
		{priOldestLargestSeqFirst, "[4 1 3 2]"},
		{priOldestSmallestSeqFirst, "[3 2 4 1]"},
		// Ratios: 1: 1600*1024/100, 2: 600*1024/300, 3: 100*1024/200, 4: 0.
		{priMinOverlappingRatio, "[4 3 2 1]"},
	} {
		o := testOptions()
		o.CompactionPri = tc.pri
		db := &DB{opts: o}
		var got []uint64
		for _, f := range db.filesByPriority(v, 1) {
			got = append(got, f.num)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("compaction_pri %d: order %v, want %s", tc.pri, got, tc.want)
		}
		// The picker takes the first table in that order not already
		// being compacted.
		fam := &family{current: v, compactPointer: make([][]byte, 3)}
		first := db.filesByPriority(v, 1)[0]
		first.compacting = true
		c := db.pickFromLevel(fam, 1)
		first.compacting = false
		if c == nil || c.inputs[0][0].num != got[1] {
			t.Errorf("compaction_pri %d: picked %v, want table %d", tc.pri, c, got[1])
		}
	}
}

func TestCompactionPriOutOfRangeRefused(t *testing.T) {
	for _, pri := range []int{-1, 5} {
		o := testOptions()
		o.CompactionPri = pri
		db, err := Open(t.TempDir(), o, Config{})
		if err == nil {
			db.Close()
			t.Fatalf("compaction_pri %d opened", pri)
		}
		if want := fmt.Sprintf("compaction_pri %d out of range", pri); !strings.Contains(err.Error(), want) {
			t.Fatalf("compaction_pri %d: %v, want %q", pri, err, want)
		}
	}
}
