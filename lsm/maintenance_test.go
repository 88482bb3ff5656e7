package lsm

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCompactFilesAndApproximateSize: ApproximateSize of part of the key
// space is a matching part of the whole (values of 100 bytes, so that the
// first 500 keys span several data blocks whatever the sequences cost),
// and CompactFiles moves the named L0 tables down.
func TestCompactFilesAndApproximateSize(t *testing.T) {
	o := testOptions()
	o.DisableAutoCompactions = true
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	key := func(i int) string { return fmt.Sprintf("key%06d", i) }
	oldValue, newValue := strings.Repeat("o", 100), strings.Repeat("n", 100)
	for i := 0; i < 1000; i++ {
		put(t, db, key(i), oldValue)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	for i := 500; i < 1500; i++ {
		put(t, db, key(i), newValue)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	levelFiles := func() (l0 []uint64, deeper int) {
		files, err := db.LiveFiles()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f.Level == 0 {
				l0 = append(l0, f.Num)
			} else {
				deeper++
			}
		}
		return l0, deeper
	}
	l0, deeper := levelFiles()
	if len(l0) == 0 || deeper == 0 {
		t.Fatalf("before CompactFiles: %d L0 tables, %d deeper; want some of both", len(l0), deeper)
	}

	whole, err := db.ApproximateSize([]byte("a"), []byte("z"))
	if err != nil {
		t.Fatal(err)
	}
	half, err := db.ApproximateSize([]byte(key(0)), []byte(key(500)))
	if err != nil {
		t.Fatal(err)
	}
	// The first 500 keys are a quarter of the entries stored (1000 in
	// L1, 1000 in L0), all of one size.
	if half < whole/8 || half > whole/2 {
		t.Errorf("size of the first 500 keys %d, of everything %d: want about a quarter", half, whole)
	}
	if n, _ := db.ApproximateSize([]byte(key(7)), []byte(key(7))); n != 0 {
		t.Errorf("size of an empty range: %d", n)
	}
	if n, _ := db.ApproximateSize([]byte(key(9)), []byte(key(3))); n != 0 {
		t.Errorf("size of an inverted range: %d", n)
	}

	if err := db.CompactFiles([]uint64{1 << 40}, 1); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("CompactFiles of an unknown table: %v", err)
	}
	if err := db.CompactFiles(l0, 1); err != nil {
		t.Fatal(err)
	}
	if l0, _ := levelFiles(); len(l0) != 0 {
		t.Errorf("after CompactFiles of every L0 table into L1, L0 holds %v", l0)
	}
	for _, i := range []int{0, 499, 500, 999, 1000, 1499} {
		want := oldValue
		if i >= 500 {
			want = newValue
		}
		if v, ok := getString(t, db, key(i)); !ok || v != want {
			t.Errorf("%s = %q, %v after CompactFiles; want %q", key(i), v, ok, want)
		}
	}
	if err := db.VerifyChecksum(); err != nil {
		t.Errorf("VerifyChecksum of an intact DB: %v", err)
	}
}

func TestVerifyFileChecksumsNeedsAGenerator(t *testing.T) {
	o := testOptions()
	db := mustOpen(t, t.TempDir(), o)
	put(t, db, "k", "v")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.VerifyFileChecksums(); !errors.Is(err, ErrNoFileChecksumGen) {
		t.Errorf("without a generator: %v, want ErrNoFileChecksumGen", err)
	}
	db.Close()
	o.Extra = map[string]string{"file_checksum_gen_factory": "FileChecksumGenCrc32cFactory"}
	db = mustOpen(t, db.dir, o)
	defer db.Close()
	if err := db.VerifyFileChecksums(); err != nil {
		t.Errorf("with a generator, tables without a recorded checksum are skipped; got %v", err)
	}
}

// TestApproximateSizeAllocatesNothing: approximatesizerandom calls
// ApproximateSize once per range, millions of times.
func TestApproximateSizeAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	for i := 0; i < 2000; i++ {
		put(t, db, fmt.Sprintf("key%06d", i), "value")
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	start, limit := []byte("key000100"), []byte("key001500")
	if _, err := db.ApproximateSize(start, limit); err != nil { // opens the tables
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { db.ApproximateSize(start, limit) }); n != 0 {
		t.Errorf("ApproximateSize allocates %.1f times per call", n)
	}
}

// TestCompactFilesRefusesToLeaveAnOlderL0Table: moving the newer of two
// overlapping L0 tables below L0 would let the older one shadow it.
func TestCompactFilesRefusesToLeaveAnOlderL0Table(t *testing.T) {
	o := testOptions()
	o.DisableAutoCompactions = true
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	for _, v := range []string{"older", "newer"} {
		put(t, db, "k", v)
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	files, err := db.LiveFiles()
	if err != nil || len(files) != 2 {
		t.Fatalf("live files %v, %v; want two L0 tables", files, err)
	}
	newer := max(files[0].Num, files[1].Num)
	if err := db.CompactFiles([]uint64{newer}, 1); err == nil || !strings.Contains(err.Error(), "older L0 table") {
		t.Errorf("CompactFiles of the newer L0 table alone: %v, want a refusal", err)
	}
	if v, _ := getString(t, db, "k"); v != "newer" {
		t.Errorf("k = %q after the refused compaction", v)
	}
	older := min(files[0].Num, files[1].Num)
	if err := db.CompactFiles([]uint64{older}, 1); err != nil {
		t.Errorf("CompactFiles of the older L0 table alone: %v", err)
	}
	if v, _ := getString(t, db, "k"); v != "newer" {
		t.Errorf("k = %q after compacting the older table", v)
	}
}
