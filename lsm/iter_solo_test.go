package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// TestSoloScan scans DBs whose data is one level (the heap of the merging
// iterator holds one child, the case of Iterator.soloNext) in both table
// formats: after a compaction that gives every entry sequence 0, and after
// one that keeps older versions for a snapshot (entries at nonzero
// sequences, several versions of a key in a row, tombstones kept). Each
// scan (latest data and the snapshot, with and without KeysOnly, with an
// upper bound, with a range deletion in the memtable, and with memtable
// keys that make the heap shrink to one child mid-scan) must return
// exactly the keys and values that Get returns for the same view.
func TestSoloScan(t *testing.T) {
	for _, format := range []string{options.TableFormatBlock, options.TableFormatRTable} {
		t.Run(format, func(t *testing.T) {
			o := testOptions()
			o.TableFormat = format
			db := mustOpen(t, t.TempDir(), o)
			defer db.Close()
			const n = 3000
			key := soloKey
			write := func(fn func(b *Batch)) {
				t.Helper()
				b := NewBatch()
				fn(b)
				if err := db.Write(b, WriteOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			for i := range n {
				write(func(b *Batch) { b.Put(key(i), fmt.Appendf(nil, "v0-%d", i)) })
			}
			compact := func() {
				t.Helper()
				if err := db.Compact(nil, nil, -1); err != nil {
					t.Fatal(err)
				}
			}
			compact() // every entry at sequence 0
			checkSoloScan(t, db, scanByGet(t, db, n, nil, nil), "sequence 0", IterOptions{})
			checkSoloScan(t, db, scanByGet(t, db, n, nil, key(n/2+1)), "sequence 0, upper bound", IterOptions{UpperBound: key(n/2 + 1)})

			snap := db.NewSnapshot()
			defer snap.Release()
			want := scanByGet(t, db, n, snap, nil)
			for i := 0; i < n; i += 3 {
				write(func(b *Batch) { b.Put(key(i), fmt.Appendf(nil, "v1-%d", i)) })
				if i%2 == 0 {
					write(func(b *Batch) { b.Put(key(i), fmt.Appendf(nil, "v2-%d", i)) })
				}
			}
			for i := 1; i < n; i += 7 {
				write(func(b *Batch) { b.Delete(key(i)) })
			}
			compact() // versions kept under the snapshot, at nonzero sequences
			checkSoloScan(t, db, want, "snapshot", IterOptions{Snapshot: snap})
			checkSoloScan(t, db, scanByGet(t, db, n, nil, nil), "versions", IterOptions{})
			checkSoloScan(t, db, scanByGet(t, db, n, nil, key(n/2+1)), "versions, upper bound", IterOptions{UpperBound: key(n/2 + 1)})

			// Memtable keys at the start: two children, then one.
			for i := 0; i < 20; i += 2 {
				write(func(b *Batch) { b.Put(key(i), fmt.Appendf(nil, "v3-%d", i)) })
			}
			checkSoloScan(t, db, scanByGet(t, db, n, nil, nil), "memtable first", IterOptions{})
			write(func(b *Batch) { b.DeleteRange(key(101), key(200)) })
			checkSoloScan(t, db, scanByGet(t, db, n, nil, nil), "range deletion", IterOptions{})
		})
	}
}

// scanEntry is one key and value of a scan.
type scanEntry struct{ key, value string }

// soloKey is key i of TestSoloScan.
func soloKey(i int) []byte { return fmt.Appendf(nil, "key%06d", i) }

// scanByGet is what a scan of keys 0..n-1 below upper (nil: no bound)
// should return: each key that Get finds, with its value, as of snap
// (nil: the latest data).
func scanByGet(t *testing.T, db *DB, n int, snap *Snapshot, upper []byte) []scanEntry {
	t.Helper()
	seq := latestSeq
	if snap != nil {
		seq = snap.seq
	}
	var out []scanEntry
	for i := range n {
		k := soloKey(i)
		if upper != nil && compareKeys(k, upper) >= 0 {
			break
		}
		var v string
		found, err := db.get(db.def, k, seq, func(b []byte) { v = string(b) })
		if err != nil {
			t.Fatal(err)
		}
		if found {
			out = append(out, scanEntry{string(k), v})
		}
	}
	return out
}

// checkSoloScan scans db with o, with and without KeysOnly (loading every
// fifth value then), and compares the keys and values with want.
func checkSoloScan(t *testing.T, db *DB, want []scanEntry, what string, o IterOptions) {
	t.Helper()
	for _, keysOnly := range []bool{false, true} {
		o.KeysOnly = keysOnly
		it, err := db.NewIter(&o)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for ok := it.First(); ok; ok = it.Next() {
			if i >= len(want) || string(it.Key()) != want[i].key {
				t.Fatalf("%s, KeysOnly %v: entry %d of the scan is %q, want %v", what, keysOnly, i, it.Key(), want[min(i, len(want)-1):][:1])
			}
			if !keysOnly || i%5 == 0 {
				v, err := it.Value()
				if err != nil || string(v) != want[i].value {
					t.Fatalf("%s, KeysOnly %v: value of %q is %q, %v; want %q", what, keysOnly, it.Key(), v, err, want[i].value)
				}
			}
			i++
		}
		if err := it.Close(); err != nil || i != len(want) {
			t.Fatalf("%s, KeysOnly %v: the scan stopped after %d of %d entries, error %v", what, keysOnly, i, len(want), err)
		}
		checkScanCount(t, db, want, what, o)
	}
}

// checkScanCount counts a scan of db with o, forward and backward, in
// runs of ScanCount of several lengths and compares the count and the
// bytes (keys, and values unless o.KeysOnly) with want, and the key each
// run stops on with want's.
func checkScanCount(t *testing.T, db *DB, want []scanEntry, what string, o IterOptions) {
	t.Helper()
	var wantBytes int64
	for _, e := range want {
		wantBytes += int64(len(e.key))
		if !o.KeysOnly {
			wantBytes += int64(len(e.value))
		}
	}
	backward := make([]scanEntry, len(want))
	for i, e := range want {
		backward[len(want)-1-i] = e
	}
	for _, reverse := range []bool{false, true} {
		order := want
		if reverse {
			order = backward
		}
		for _, run := range []int{1, 7, 600, 5000} {
			// Odd runs are timed: the same count, and times that do
			// not go back.
			var doneNs []int64
			if run%2 == 1 {
				doneNs = make([]int64, run)
			}
			it, err := db.NewIter(&o)
			if err != nil {
				t.Fatal(err)
			}
			if reverse {
				it.Last()
			} else {
				it.First()
			}
			var count int
			var bytes int64
			for stepFirst := false; ; stepFirst = true {
				n, b, more, valueErr := it.ScanCount(run, stepFirst, reverse, doneNs)
				if valueErr != nil || n > run || more != (n == run) {
					t.Fatalf("%s, %+v, reverse %v: ScanCount(%d) after %d entries counted %d, more %v, value error %v", what, o, reverse, run, count, n, more, valueErr)
				}
				for i := 0; doneNs != nil && i < n; i++ {
					if doneNs[i] < 0 || i > 0 && doneNs[i] < doneNs[i-1]-1000 {
						t.Fatalf("%s, %+v: timed run of %d: times %v", what, o, run, doneNs[:n])
					}
				}
				count, bytes = count+n, bytes+b
				if !more {
					break
				}
				if !it.Valid() || count > len(order) || string(it.Key()) != order[count-1].key {
					t.Fatalf("%s, %+v, reverse %v: a run of %d stopped on %q (valid %v) after %d entries", what, o, reverse, run, it.Key(), it.Valid(), count)
				}
			}
			if err := it.Close(); err != nil || count != len(order) || bytes != wantBytes {
				t.Fatalf("%s, %+v, reverse %v: runs of %d counted %d entries, %d bytes, error %v; want %d, %d", what, o, reverse, run, count, bytes, err, len(order), wantBytes)
			}
		}
	}
}
