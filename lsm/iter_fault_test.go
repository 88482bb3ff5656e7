//go:build unix

package lsm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/sst"
)

// TestScanTableTruncatedUnderIterator truncates the tables of one level
// while an iterator is in the middle of a scan over them, for every level
// of the layered DB (two L0 tables, L1, L5) and both formats: the block
// format read through mmap (--mmap_read), and rtable below L0 (always
// mapped) with L0's block tables read through mmap or pread. The tables
// were mapped and read before the truncation, so the scan's next reads of
// them fault: the scan must go on with correct entries only and then end
// with an error wrapping sst.ErrCorruption that names a truncated file,
// Valid false at once and no entry after it; a reverse scan from a fresh
// Last must do the same; and the process must live.
func TestScanTableTruncatedUnderIterator(t *testing.T) {
	page := int64(os.Getpagesize())
	for _, tc := range []struct {
		format formatCase
		mmap   bool
		levels []int
	}{
		{formatCases[0], true, []int{0, 1, 5}},
		{formatCases[1], true, []int{0, 1, 5}},
		// Without mmap L0's block tables are read with pread through the
		// block cache, which the first scan filled: only rtable's levels
		// are mapped.
		{formatCases[1], false, []int{1, 5}},
	} {
		for _, level := range tc.levels {
			// keep: what is left of each file, a whole number of pages (the
			// page holding a cut in mid-page would read as zeros past it,
			// which is damage of another kind).
			for _, keep := range []string{"0", "half"} {
				name := fmt.Sprintf("%s/mmap=%v/L%d/keep=%s", tc.format.name, tc.mmap, level, keep)
				t.Run(name, func(t *testing.T) {
					dir := t.TempDir()
					o := tc.format.with(layeredOptions())
					m := layeredDBWith(t, dir, o)
					keys := m.sortedKeys()
					o.MmapRead = tc.mmap
					db := mustOpen(t, dir, o)
					defer db.Close()
					tc.format.requireFormat(t, db)
					// Open and map every table with a full scan.
					c := &scanChecker{t: t, keys: keys, m: m, label: "before truncation"}
					it, err := db.NewIter(nil)
					if err != nil {
						t.Fatal(err)
					}
					c.check(it, it.First(), 0, 1, len(keys)+1, "forward scan")
					if err := it.Close(); err != nil || c.errs != 0 {
						t.Fatalf("the intact DB: %v", err)
					}

					it, err = db.NewIter(nil)
					if err != nil {
						t.Fatal(err)
					}
					defer it.Close()
					c = &scanChecker{t: t, keys: keys, m: m, label: "under a live iterator"}
					third := len(keys) / 3
					c.check(it, it.First(), 0, 1, third, "first third")
					if !it.Valid() || string(it.Key()) != keys[third] {
						t.Fatalf("the first third of the scan ended at %q, valid %v, error %v", it.Key(), it.Valid(), it.Error())
					}
					truncated := truncateLevel(t, db, level, func(size int64) int64 {
						if keep == "0" {
							return 0
						}
						return size / 2 / page * page
					})
					c.check(it, true, third, 1, len(keys)+1, "rest of the scan")
					requireFaultError(t, it.Error(), truncated, tc.mmap || level > 0, "forward scan")
					c.check(it, it.Last(), len(keys)-1, -1, len(keys)+1, "reverse scan")
					requireFaultError(t, it.Error(), truncated, tc.mmap || level > 0, "reverse scan")
				})
			}
		}
	}
}

// truncateLevel truncates every table of level in db's current version to
// keep(size) bytes and returns their paths.
func truncateLevel(t *testing.T, db *DB, level int, keep func(size int64) int64) []string {
	t.Helper()
	db.mu.Lock()
	files := slices.Clone(db.def.current.levels[level])
	db.mu.Unlock()
	if len(files) == 0 {
		t.Fatalf("no table in L%d", level)
	}
	var paths []string
	for _, f := range files {
		path := tableName(db.dir, f.num)
		if err := os.Truncate(path, keep(int64(f.size))); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// requireFaultError requires err to be a corruption error naming one of
// paths; mapped says the files were read through a mapping, whose lost
// pages fault.
func requireFaultError(t *testing.T, err error, paths []string, mapped bool, what string) {
	t.Helper()
	if !errors.Is(err, sst.ErrCorruption) {
		t.Fatalf("%s over truncated tables %v: error %v", what, baseNames(paths), err)
	}
	if !slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(err.Error(), p) }) {
		t.Fatalf("%s: error %q names none of the truncated tables %v", what, err, baseNames(paths))
	}
	if mapped && !strings.Contains(err.Error(), "memory-mapped read failed") {
		t.Fatalf("%s: error %q is not the fault of a mapped read", what, err)
	}
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}
