package pebble

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// The corruption matrix: a database with tables on several levels,
// overwritten and deleted keys, and writes only in the WAL is damaged one
// file at a time (a flipped byte, a truncation, the file deleted), opened,
// and read back in full with a scan and a Get per key. Each trial's outcome
// is one of:
//
//	intact      every key and value as written
//	open-error  Open refused the database
//	read-error  a read returned an error and nothing wrong came before it
//	lost        keys missing with no error (and no wrong value)
//	wrong       a wrong value, an older version or a deleted key returned
//	            with no error
//
// "wrong" fails the test. "lost" is counted and reported: Pebble replays a
// damaged WAL up to the damage and drops the rest as a torn tail, and a
// deleted WAL is not missed, as in RocksDB 7.8.3 with its default
// wal_recovery_mode and track_and_verify_wals_in_manifest=false. A damaged
// WAL therefore leaves an earlier state of the database: a key's previous
// version (or a key deleted only in the WAL) read after WAL damage counts as
// lost, while the same read after damage to any other file counts as wrong
// (a table dropped from a read, the fault a scan must never hide).

type corruptOutcome int

const (
	outIntact corruptOutcome = iota
	outOpenError
	outReadError
	outLost
	outWrong
)

var corruptOutcomeNames = [...]string{"intact", "open-error", "read-error", "lost", "wrong"}

// corruptTemplate builds the database the trials damage and returns its
// directory and every key's versions, oldest first (nil for a deletion); the
// last one is what must read back.
func corruptTemplate(t *testing.T, o *options.Options) (string, map[string][][]byte) {
	t.Helper()
	dir := t.TempDir()
	db := openTest(t, o)(dir)
	want := map[string][][]byte{}
	put := func(i int, gen string, sync bool) {
		k, v := fmt.Sprintf("key%06d", i), bytes.Repeat([]byte(fmt.Sprintf("%s-%06d.", gen, i)), 12)
		if err := db.Put([]byte(k), v, &engine.WriteOptions{Sync: sync}); err != nil {
			t.Fatal(err)
		}
		want[k] = append(want[k], v)
	}
	for i := range 4000 { // old versions, compacted down
		put(i, "one", false)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4000; i += 3 { // newer versions above them
		put(i, "two", false)
	}
	for i := 0; i < 4000; i += 5 {
		k := fmt.Sprintf("key%06d", i)
		if err := db.Delete([]byte(k), nil); err != nil {
			t.Fatal(err)
		}
		want[k] = append(want[k], nil)
	}
	if err := db.(*DB).Flush(); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 4000; i += 97 { // only in the WAL
		put(i, "three", true)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, want
}

// copyDir copies the regular files of src into a new directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// fileKind names a Pebble file by kind for the report.
func fileKind(name string) string {
	switch {
	case strings.HasSuffix(name, ".sst"):
		return "table"
	case strings.HasSuffix(name, ".log"):
		return "wal"
	case strings.HasPrefix(name, "MANIFEST-"):
		return "manifest"
	case strings.HasPrefix(name, "OPTIONS-"):
		return "options"
	case strings.HasPrefix(name, "marker."):
		return "marker"
	}
	return name
}

// older reports whether v (nil: not found) is one of key's versions before
// its last.
func older(versions [][]byte, v []byte) bool {
	for _, old := range versions[:len(versions)-1] {
		if (old == nil) == (v == nil) && bytes.Equal(old, v) {
			return true
		}
	}
	return false
}

// readBack opens dir and classifies what it reads against history; stale is
// the outcome of reading an earlier version.
func readBack(dir string, o *options.Options, history map[string][][]byte, stale corruptOutcome) (out corruptOutcome, detail string) {
	db, err := Opener{}.Open(dir, o, nil)
	if err != nil {
		return outOpenError, err.Error()
	}
	defer db.Close()
	worst := outIntact
	note := func(o corruptOutcome, d string) {
		if o > worst {
			worst, detail = o, d
		}
	}
	want := make(map[string][]byte, len(history))
	live := make([]string, 0, len(history))
	for k, vs := range history {
		want[k] = vs[len(vs)-1]
		if want[k] != nil {
			live = append(live, k)
		}
	}
	sort.Strings(live)
	wrong := func(k string, v []byte, d string) {
		if older(history[k], v) {
			note(stale, d)
		} else {
			note(outWrong, d)
		}
	}

	it, err := db.NewIter(nil)
	if err != nil {
		note(outReadError, err.Error())
	} else {
		i := 0
		for ok := it.First(); ok; ok = it.Next() {
			k := string(it.Key())
			v, err := it.Value()
			if err != nil {
				note(outReadError, err.Error())
				break
			}
			for i < len(live) && live[i] < k {
				if older(history[live[i]], nil) {
					note(stale, "scan skipped "+live[i])
				} else {
					note(outLost, "scan skipped "+live[i])
				}
				i++
			}
			if i < len(live) && k == live[i] {
				i++
			}
			if !bytes.Equal(v, want[k]) {
				wrong(k, bytes.Clone(v), fmt.Sprintf("scan returned %s=%.20q", k, v))
			}
		}
		if err := it.Error(); err != nil {
			note(outReadError, err.Error())
		} else if i < len(live) && worst < outWrong {
			note(outLost, fmt.Sprintf("scan ended after %d of %d keys", i, len(live)))
		}
		it.Close()
	}
	for k, v := range want {
		var got []byte
		found, err := db.Get([]byte(k), func(b []byte) { got = bytes.Clone(b) })
		switch {
		case err != nil:
			note(outReadError, err.Error())
		case v == nil && found:
			wrong(k, got, "deleted key "+k+" found")
		case v != nil && !found:
			if older(history[k], nil) {
				note(stale, "Get missed "+k)
			} else {
				note(outLost, "Get missed "+k)
			}
		case v != nil && !bytes.Equal(got, v):
			wrong(k, got, fmt.Sprintf("Get %s = %.20q", k, got))
		}
	}
	return worst, detail
}

// TestCorruptionMatrix runs the matrix and reports the outcome counts by
// file kind and damage. No trial may return wrong data or panic.
func TestCorruptionMatrix(t *testing.T) {
	o := testOptions()
	template, want := corruptTemplate(t, o)
	trialOpts := testOptions()
	trialOpts.DisableAutoCompactions = true // reads only: no compaction rewrites the damage

	flips, truncs := 6, 4
	if testing.Short() {
		flips, truncs = 2, 1
	}
	entries, err := os.ReadDir(template)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(14, 14))
	counts := map[string]*[len(corruptOutcomeNames)]int{}
	record := func(kind, damage string, out corruptOutcome, detail, name string) {
		key := kind + " " + damage
		if counts[key] == nil {
			counts[key] = new([len(corruptOutcomeNames)]int)
		}
		counts[key][out]++
		if out == outWrong {
			t.Errorf("%s %s of %s: wrong data: %s", kind, damage, name, detail)
		}
	}
	for _, e := range entries {
		name := e.Name()
		if name == "LOCK" {
			continue
		}
		kind := fileKind(name)
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		size := info.Size()
		type damage struct {
			what  string
			apply func(path string) error
		}
		var damages []damage
		for range flips {
			if size == 0 {
				break
			}
			span := size
			if kind == "wal" {
				// A WAL is recycled from an older one: past its first few KiB
				// (the template's WAL-only writes) lie the old log's records,
				// which replay skips, so the flips go where records are live.
				span = min(size, 8<<10)
			}
			off := rng.Int64N(span)
			damages = append(damages, damage{"flip", func(path string) error {
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				data[off] ^= 1 << rng.IntN(8)
				return os.WriteFile(path, data, 0o644)
			}})
		}
		for range truncs {
			if size == 0 {
				break
			}
			cut := rng.Int64N(size)
			damages = append(damages, damage{"truncate", func(path string) error { return os.Truncate(path, cut) }})
		}
		damages = append(damages, damage{"delete", os.Remove})
		for _, d := range damages {
			dir := copyDir(t, template)
			if err := d.apply(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			stale := outWrong
			if kind == "wal" {
				stale = outLost
			}
			out, detail := readBack(dir, trialOpts, want, stale)
			record(kind, d.what, out, detail, name)
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%-18s %6s %10s %10s %6s %6s\n", "file damage", "intact", "open-error", "read-error", "lost", "wrong")
	for _, k := range keys {
		c := counts[k]
		fmt.Fprintf(&b, "%-18s %6d %10d %10d %6d %6d\n", k, c[outIntact], c[outOpenError], c[outReadError], c[outLost], c[outWrong])
	}
	t.Logf("pebble corruption matrix:\n%s", b.String())
}
