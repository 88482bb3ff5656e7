package lsm

import (
	"fmt"
	"testing"
)

// tablesDB makes a DB of n tables holding disjoint key ranges (each flush
// moves down whole, so none is rewritten) and returns its directory.
func tablesDB(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	db := mustOpen(tb, dir, testOptions())
	for i := range n {
		for j := range 100 {
			put(tb, db, fmt.Sprintf("key%04d.%03d", i, j), "value")
		}
		if err := db.Flush(); err != nil {
			tb.Fatal(err)
		}
	}
	if err := db.WaitForCompactions(); err != nil {
		tb.Fatal(err)
	}
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	if got := len(filesOf(tb, dir, fileTable)); got != n {
		tb.Fatalf("%d tables, want %d", got, n)
	}
	return dir
}

// BenchmarkVerifyTables100 times the open-time check of the tables a
// MANIFEST lists, for a DB of 100 tables (files in the page cache).
func BenchmarkVerifyTables100(b *testing.B) {
	dir := tablesDB(b, 100)
	db := mustOpen(b, dir, testOptions())
	defer db.Close()
	db.mu.Lock()
	defer db.mu.Unlock()
	for b.Loop() {
		if err := db.verifyTables(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen100Tables times Open and Close of a DB of 100 tables.
func BenchmarkOpen100Tables(b *testing.B) {
	dir := tablesDB(b, 100)
	for b.Loop() {
		db, err := Open(dir, testOptions(), Config{})
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
