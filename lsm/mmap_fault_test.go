//go:build unix

package lsm

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/godbbench/godbbench/sst"
)

// TestMmapTableShrunkAfterOpen truncates mapped tables under an open DB
// (after reads mapped them): Get, scans and a compaction must return
// errors wrapping sst.ErrCorruption, never SIGBUS, and the failed
// compaction must install nothing.
func TestMmapTableShrunkAfterOpen(t *testing.T) {
	for _, tc := range []struct {
		compression string
		keep        float64 // fraction of each file left
	}{{"none", 0}, {"none", 0.5}, {"snappy", 0}, {"snappy", 0.3}} {
		t.Run(fmt.Sprintf("%s/keep=%v", tc.compression, tc.keep), func(t *testing.T) {
			dir := t.TempDir()
			o := layeredOptions()
			o.CompressionType = tc.compression
			m := layeredDBWith(t, dir, o)
			keys := m.sortedKeys()
			o.MmapRead = true
			db := mustOpen(t, dir, o)
			defer db.Close()
			// Map every table.
			c := &scanChecker{t: t, keys: keys, m: m, label: "before truncation"}
			it, err := db.NewIter(nil)
			if err != nil {
				t.Fatal(err)
			}
			c.check(it, it.First(), 0, 1, len(keys)+1, "forward scan")
			it.Close()
			if c.errs != 0 {
				t.Fatal("the intact DB gave an error")
			}
			before := filesOf(t, dir, fileTable)
			for _, path := range before {
				st, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(path, int64(float64(st.Size())*tc.keep)); err != nil {
					t.Fatal(err)
				}
			}
			getErr := getEach(t, db, keys, m)
			if !errors.Is(getErr, sst.ErrCorruption) {
				t.Fatalf("Gets from truncated mapped tables: %v", getErr)
			}
			c = &scanChecker{t: t, keys: keys, m: m, label: "after truncation"}
			if it, err = db.NewIter(nil); err != nil {
				t.Fatal(err)
			}
			c.check(it, it.First(), 0, 1, len(keys)+1, "forward scan")
			if !errors.Is(it.Error(), sst.ErrCorruption) {
				t.Fatalf("forward scan: error %v", it.Error())
			}
			// Repositioning retries: correct entries or the error again.
			c.check(it, it.Last(), len(keys)-1, -1, len(keys)+1, "reverse scan")
			if !errors.Is(it.Error(), sst.ErrCorruption) {
				t.Fatalf("reverse scan: error %v", it.Error())
			}
			it.Close()
			err = db.Compact(nil, nil, -1)
			if !errors.Is(err, sst.ErrCorruption) {
				t.Fatalf("compaction over truncated mapped tables: %v", err)
			}
			if after := filesOf(t, dir, fileTable); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Fatalf("tables before %v, after the failed compaction %v", before, after)
			}
		})
	}
}

// TestRTableShrunkAfterOpen truncates the tables of a DB whose levels
// below L0 are rtable tables (always mapped) after Gets mapped them: Get
// and a compaction must return errors wrapping sst.ErrCorruption, never
// SIGBUS, and the failed compaction must install nothing. (Scans under
// a live iterator: TestScanTableTruncatedUnderIterator.)
func TestRTableShrunkAfterOpen(t *testing.T) {
	for _, keep := range []float64{0, 0.5} {
		t.Run(fmt.Sprintf("keep=%v", keep), func(t *testing.T) {
			dir := t.TempDir()
			o := formatCases[1].with(layeredOptions())
			m := layeredDBWith(t, dir, o)
			o.MmapRead = true
			db := mustOpen(t, dir, o)
			defer db.Close()
			formatCases[1].requireFormat(t, db)
			keys := m.sortedKeys()
			for _, k := range keys {
				if _, err := db.Get([]byte(k), nil); err != nil {
					t.Fatalf("the intact DB: %v", err)
				}
			}
			before := filesOf(t, dir, fileTable)
			for _, path := range before {
				st, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(path, int64(float64(st.Size())*keep)); err != nil {
					t.Fatal(err)
				}
			}
			getErr := getEach(t, db, keys, m)
			if !errors.Is(getErr, sst.ErrCorruption) {
				t.Fatalf("Gets from truncated tables: %v", getErr)
			}
			err := db.Compact(nil, nil, -1)
			if !errors.Is(err, sst.ErrCorruption) {
				t.Fatalf("compaction over truncated tables: %v", err)
			}
			if after := filesOf(t, dir, fileTable); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Fatalf("tables before %v, after the failed compaction %v", before, after)
			}
		})
	}
}

// getEach gets every key of keys from a damaged DB: each Get must fail or
// return the model's value. It returns the last error.
func getEach(t *testing.T, db *DB, keys []string, m model) (lastErr error) {
	t.Helper()
	for _, k := range keys {
		var got string
		found, err := db.Get([]byte(k), func(v []byte) { got = string(v) })
		if err != nil {
			lastErr = err
			continue
		}
		if !found || got != m[k] {
			t.Fatalf("Get %q = %q, %v; want %q", k, got, found, m[k])
		}
	}
	return lastErr
}
