package offsetskiplist

import (
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/memtabletest"
)

func TestConformance(t *testing.T) {
	memtabletest.RunRep(t, func() memtable.Rep { return New(64 << 20) })
	memtabletest.RunFull(t, func() memtable.Rep { return New(1 << 20) })
}

func TestConformanceTinyWindows(t *testing.T) {
	// 64 KiB windows: many chunks, so offsets cross window boundaries often.
	memtabletest.RunRep(t, func() memtable.Rep { return New(8 << 20) })
}

func TestRegistered(t *testing.T) {
	for _, spec := range []string{"offset_skiplist", "OffsetSkipList", `OffsetSkipList:{"mem_cap":"3M"}`} {
		r, err := memtable.New(spec)
		if err != nil {
			t.Fatalf("New(%q): %v", spec, err)
		}
		if _, ok := r.(*List); !ok {
			t.Fatalf("New(%q) = %T", spec, r)
		}
	}
	r, _ := memtable.New(`OffsetSkipList:{"mem_cap":"3M"}`)
	if got := r.(*List).a.capBytes; got != 3<<20 {
		t.Fatalf("mem_cap 3M gave capacity %d", got)
	}
}

func TestEmptyKeyAndValue(t *testing.T) {
	l := New(1 << 20)
	if err := l.Add(1, base.KindSet, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.Add(2, base.KindDelete, []byte{}, nil); err != nil {
		t.Fatal(err)
	}
	v, k, ok := l.Get(nil, 1)
	if !ok || len(v) != 0 || k != base.KindSet {
		t.Fatalf("Get(nil, 1) = %q %d %v", v, k, ok)
	}
	if _, k, _ := l.Get(nil, 5); k != base.KindDelete {
		t.Fatalf("newest kind = %d", k)
	}
}

func BenchmarkRep(b *testing.B) {
	memtabletest.BenchRep(b, func() memtable.Rep { return New(256 << 20) })
}

func TestValuesLargerThanAWindow(t *testing.T) {
	l := New(64 << 20) // 1 MiB windows
	big := make([]byte, 3<<20+5)
	for i := range big {
		big[i] = byte(i * 7)
	}
	for i, k := range []string{"b", "a", "c"} {
		if err := l.Add(uint64(i+1), base.KindSet, []byte(k), big[i:]); err != nil {
			t.Fatal(err)
		}
		if err := l.Add(uint64(i+10), base.KindSet, []byte(k+"small"), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	for i, k := range []string{"b", "a", "c"} {
		v, _, ok := l.Get([]byte(k), base.MaxSeq)
		if !ok || string(v) != string(big[i:]) {
			t.Fatalf("Get(%q): found=%v len=%d", k, ok, len(v))
		}
	}
	if u := l.ApproximateMemoryUsage(); u < 9<<20 || u > 16<<20 {
		t.Fatalf("ApproximateMemoryUsage = %d", u)
	}
}

func TestChooseMemCap(t *testing.T) {
	for _, c := range []struct{ memCap, wbs, want uint64 }{
		{0, 0, DefaultMemCap},
		{1 << 20, 0, 1 << 20},
		{0, 64 << 20, DefaultMemCap},
		{1 << 20, 64 << 20, 128 << 20},
		{0, 4 << 30, 5 << 30},
		{0, 12 << 30, 13 << 30},
		{0, 20 << 30, 16 << 30},
	} {
		if got := chooseMemCap(c.memCap, c.wbs); got != c.want {
			t.Errorf("chooseMemCap(%d, %d) = %d, want %d", c.memCap, c.wbs, got, c.want)
		}
	}
}

func TestSmallArenaValuesLargerThanAWindow(t *testing.T) {
	l := New(8 << 20) // 64 KiB chunks, each at the start of a 1 MiB window
	big := make([]byte, 1<<20+3)
	for i := range big {
		big[i] = byte(i * 13)
	}
	var added []string
	for i := 0; ; i++ {
		k := string(rune('a' + i))
		err := l.Add(uint64(i+1), base.KindSet, []byte(k), big[i:])
		if err == memtable.ErrFull {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		added = append(added, k)
	}
	// 8 MiB holds seven 1 MiB+ values (each rounded up to 64 KiB chunks,
	// next to the head's chunk) and not an eighth.
	if len(added) != 7 {
		t.Fatalf("added %d values before ErrFull, want 7", len(added))
	}
	if u := l.ApproximateMemoryUsage(); u > 8<<20+4096 {
		t.Fatalf("ApproximateMemoryUsage = %d, past the 8 MiB capacity", u)
	}
	for i, k := range added {
		v, _, ok := l.Get([]byte(k), base.MaxSeq)
		if !ok || string(v) != string(big[i:]) {
			t.Fatalf("Get(%q): found=%v len=%d", k, ok, len(v))
		}
	}
}
