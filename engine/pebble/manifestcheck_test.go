package pebble

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/record"
)

// recordEnds returns the lengths a MANIFEST's bytes can be cut to and
// still be a valid, older MANIFEST: where each record after the first
// starts, and the whole length.
func recordEnds(t *testing.T, data []byte) []int {
	t.Helper()
	var ends []int
	r := record.NewReader(data)
	for first := true; ; first = false {
		if _, err := r.Next(); err != nil {
			break
		}
		if !first {
			ends = append(ends, int(r.Offset()))
		}
	}
	return append(ends, len(data))
}

// manifestBytes returns the path and the bytes of dir's only MANIFEST.
func manifestBytes(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	path := manifestOf(t, dir)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// tables lists the .sst files of dir.
func tables(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	sort.Strings(m)
	return m
}

// TestManifestCutAtRecordBoundary cuts a MANIFEST after each of its records
// but the last, and in the middle of the record after it: each cut is a
// valid MANIFEST of an older state, the second with a torn tail. Pebble alone
// opened such cuts and deleted the tables the lost edits had added. Each
// cut must now either be refused (by the check, or by Pebble when tables the
// cut MANIFEST lists are gone), leaving the directory as it was, or open
// without a table deleted and read back every key as written (the lost
// edits then only deleted tables, or named tables that are still redundant).
func TestManifestCutAtRecordBoundary(t *testing.T) {
	o := testOptions()
	dir, history := corruptTemplate(t, o)
	o.DisableAutoCompactions = true // no table may go but by the check's leave
	path, clean := manifestBytes(t, dir)
	ends := recordEnds(t, clean)
	if len(ends) < 3 {
		t.Fatalf("MANIFEST has %d records; want a few", len(ends))
	}
	// Each boundary, and the middle of the record after it (a torn tail).
	var cuts []int
	for i, n := range ends[:len(ends)-1] {
		cuts = append(cuts, n, (n+ends[i+1])/2)
	}
	refused, ours := 0, 0
	for _, n := range cuts {
		cut := copyDir(t, dir)
		if err := os.WriteFile(filepath.Join(cut, filepath.Base(path)), clean[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		before := dirState(t, cut)
		beforeTables := tables(t, cut)
		db, err := Opener{}.Open(cut, o, nil)
		if err != nil {
			if after := dirState(t, cut); after != before {
				t.Errorf("cut to %d: the refused open changed the directory", n)
			}
			refused++
			if strings.HasPrefix(err.Error(), "Corruption: ") {
				ours++
			}
			t.Logf("cut to %d of %d: %.300s", n, len(clean), err)
			continue
		}
		db.Close()
		if after := tables(t, cut); strings.Join(after, " ") != strings.Join(beforeTables, " ") {
			t.Errorf("cut to %d: tables %v after the open, %v before", n, after, beforeTables)
		}
		if out, detail := readBack(cut, o, history, outWrong); out != outIntact {
			t.Errorf("cut to %d: %s: %s", n, corruptOutcomeNames[out], detail)
		}
	}
	t.Logf("%d of %d cuts refused, %d by the MANIFEST check (Pebble refuses the others: "+
		"live tables missing)", refused, len(cuts), ours)
	if ours == 0 {
		t.Error("no cut refused: the template's later edits add tables, which a cut loses")
	}
}

func TestKeyCover(t *testing.T) {
	r := func(lo, hi string) keyRange { return keyRange{[]byte(lo), []byte(hi)} }
	c := newKeyCover(map[uint64]keyRange{1: r("f", "g"), 2: r("b", "d"), 3: r("a", "ca"), 4: {}})
	for key, want := range map[string]bool{
		"0": false, "a": true, "c": true, "d": true, "da": false, "e": false,
		"f": true, "fz": true, "g": true, "h": false, "": false,
	} {
		if got := c.holds([]byte(key)); got != want {
			t.Errorf("holds(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestUnnamedCopyOfLiveTableAccepted puts a copy of a live table in the
// directory under a number no MANIFEST names, as a compaction that had not
// committed its edit leaves its output: the entries are the live table's,
// so the open goes ahead (and Pebble deletes the copy).
func TestUnnamedCopyOfLiveTableAccepted(t *testing.T) {
	o := testOptions()
	dir, history := corruptTemplate(t, o)
	o.DisableAutoCompactions = true // no table may go but by the check's leave
	live := tables(t, dir)
	data, err := os.ReadFile(filepath.Join(dir, live[0]))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "099999.sst"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	// An unfinished table write: no footer.
	if err := os.WriteFile(filepath.Join(dir, "099998.sst"), data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if out, detail := readBack(dir, o, history, outWrong); out != outIntact {
		t.Fatalf("%s: %s", corruptOutcomeNames[out], detail)
	}
	after := strings.Join(tables(t, dir), " ")
	for _, name := range live {
		if !strings.Contains(after, name) {
			t.Errorf("live table %s gone after the open: %s", name, after)
		}
	}
}

// TestWALlessDatabaseAcceptsFlushOutput: a flushed table that the MANIFEST
// does not name, whose entries are newer than every named table's and in
// no WAL, is refused; unless the newest OPTIONS file says the database was
// written with disable_wal=true, where an unfinished flush leaves exactly
// that.
func TestWALlessDatabaseAcceptsFlushOutput(t *testing.T) {
	dir := t.TempDir()
	db := openTest(t, testOptions())(dir)
	for _, prefix := range []string{"a", "b"} {
		for i := range 500 {
			if err := db.Put([]byte(fmt.Sprintf("%s%04d", prefix, i)), make([]byte, 50), nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.(*DB).Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	wals, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, w := range wals {
		if err := os.Remove(w); err != nil {
			t.Fatal(err)
		}
	}
	path, clean := manifestBytes(t, dir)
	ends := recordEnds(t, clean)
	refused := false
	for i := len(ends) - 2; i >= 0 && !refused; i-- {
		if err := os.WriteFile(path, clean[:ends[i]], 0o644); err != nil {
			t.Fatal(err)
		}
		err := checkBeforeOpen(vfs.Default, dir, "")
		refused = err != nil && strings.Contains(err.Error(), "sequence number")
	}
	if !refused {
		t.Fatal("no cut of the MANIFEST refused for entries no WAL holds")
	}
	options, _ := filepath.Glob(filepath.Join(dir, "OPTIONS-*"))
	for _, o := range options {
		data, err := os.ReadFile(o)
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(data, []byte("disable_wal=false"), []byte("disable_wal=true"), 1)
		if err := os.WriteFile(o, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkBeforeOpen(vfs.Default, dir, ""); err != nil {
		t.Fatalf("written without a WAL: %v", err)
	}
}

// TestTornEditKeepsItsTable cuts a MANIFEST in the middle of the edit that
// names a flush's table, with the WAL the flush came from still there (as
// Pebble leaves an obsolete WAL it keeps for reuse): the table's entries
// are in that WAL, so the open goes ahead, but the table, which the cut
// edit may have made live, is not deleted.
func TestTornEditKeepsItsTable(t *testing.T) {
	o := testOptions()
	o.DisableAutoCompactions = true
	dir := t.TempDir()
	db := openTest(t, o)(dir)
	want := map[string]bool{}
	put := func(prefix string) {
		for i := range 300 {
			k := fmt.Sprintf("%s%04d", prefix, i)
			if err := db.Put([]byte(k), []byte(k), &engine.WriteOptions{Sync: true}); err != nil {
				t.Fatal(err)
			}
			want[k] = true
		}
	}
	put("a")
	wals, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	saved := map[string][]byte{}
	for _, w := range wals {
		data, err := os.ReadFile(w)
		if err != nil {
			t.Fatal(err)
		}
		saved[w] = data
	}
	if err := db.(*DB).Flush(); err != nil {
		t.Fatal(err)
	}
	put("b")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for w, data := range saved {
		if _, err := os.Stat(w); err != nil {
			if err := os.WriteFile(w, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	path, clean := manifestBytes(t, dir)
	before := tables(t, dir)
	if len(before) != 1 {
		t.Fatalf("tables %v; want the flush's one", before)
	}
	// The last record is the flush's edit: cut it in the middle.
	ends := recordEnds(t, clean)
	if len(ends) < 2 {
		t.Fatalf("%d records", len(ends))
	}
	cut := (ends[len(ends)-2] + len(clean)) / 2
	if err := os.WriteFile(path, clean[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	re, err := Opener{}.Open(dir, o, nil)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	for k := range want {
		found, err := re.Get([]byte(k), func([]byte) {})
		if err != nil || !found {
			t.Fatalf("key %s: found %v, %v", k, found, err)
		}
	}
	if err := re.Close(); err != nil {
		t.Fatal(err)
	}
	after := strings.Join(tables(t, dir), " ")
	if !strings.Contains(after, before[0]) {
		t.Errorf("table %s deleted by the open: %s", before[0], after)
	}
}
