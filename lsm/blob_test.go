package lsm

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// blobTestOptions: values of 100 bytes and more in blob files of about 8
// KiB.
func blobTestOptions(extra map[string]string) *options.Options {
	o := testOptions()
	o.Extra = map[string]string{
		"enable_blob_files": "true",
		"min_blob_size":     "100",
		"blob_file_size":    "8192",
	}
	for k, v := range extra {
		o.Extra[k] = v
	}
	return o
}

func blobValue(i, gen int) string {
	return fmt.Sprintf("value-%d-%d-%s", i, gen, strings.Repeat("x", 400))
}

func writeGeneration(t *testing.T, db *DB, n, gen int) {
	t.Helper()
	for i := range n {
		put(t, db, fmt.Sprintf("key%04d", i), blobValue(i, gen))
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
}

func liveBlobFiles(db *DB) []uint64 {
	db.mu.Lock()
	defer db.mu.Unlock()
	var nums []uint64
	for n := range db.def.current.blobs {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	return nums
}

// namesIn lists the entries of dir whose names keep accepts.
func namesIn(t *testing.T, dir string, keep func(name string) bool) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if keep(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

func blobFilesIn(t *testing.T, dir string) []string {
	return namesIn(t, dir, func(n string) bool { return strings.HasSuffix(n, ".blob") })
}

// dirNames lists dir without LOCK.
func dirNames(t *testing.T, dir string) []string {
	return namesIn(t, dir, func(n string) bool { return n != lockName })
}

func checkGeneration(t *testing.T, db *DB, n, gen int) {
	t.Helper()
	for i := range n {
		var got string
		found, err := db.Get([]byte(fmt.Sprintf("key%04d", i)), func(v []byte) { got = string(v) })
		if err != nil || !found || got != blobValue(i, gen) {
			t.Fatalf("key%04d: %q %v %v, want generation %d", i, got, found, err, gen)
		}
	}
}

// TestBlobGarbageDeletesFiles: overwritten values make their blob files
// all garbage once compactions drop the old versions; such files leave the
// version and the directory. With garbage collection at age cutoff 1, a
// compaction relocates every value it reads, so the old files go too.
func TestBlobGarbageDeletesFiles(t *testing.T) {
	for _, gc := range []bool{false, true} {
		t.Run(fmt.Sprint("gc=", gc), func(t *testing.T) {
			dir := t.TempDir()
			o := blobTestOptions(map[string]string{
				"enable_blob_garbage_collection":     fmt.Sprint(gc),
				"blob_garbage_collection_age_cutoff": "1.0",
			})
			// Every table stays in L0 until Compact merges them all.
			o.DisableAutoCompactions = true
			db := mustOpen(t, dir, o)
			defer db.Close()
			writeGeneration(t, db, 200, 1)
			first := liveBlobFiles(db)
			if len(first) < 5 {
				t.Fatalf("%d blob files for 200 values of 400 bytes in 8 KiB files", len(first))
			}
			if !gc {
				writeGeneration(t, db, 200, 2)
			}
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
			live := liveBlobFiles(db)
			for _, n := range first {
				if slices.Contains(live, n) {
					t.Errorf("blob file %d is still live: %v", n, live)
				}
			}
			if len(live) == 0 {
				t.Fatalf("no blob file is live")
			}
			if got := blobFilesIn(t, dir); len(got) != len(live) {
				t.Errorf("blob files on disk %v, live %v", got, live)
			}
			gen := 2
			if gc {
				gen = 1
			}
			checkGeneration(t, db, 200, gen)
		})
	}
}

// TestBlobKeyOnlyScanReadsNoBlob: a key-only scan succeeds with every blob
// file unreadable; a scan reading values fails at once.
func TestBlobKeyOnlyScanReadsNoBlob(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, blobTestOptions(nil))
	defer db.Close()
	writeGeneration(t, db, 100, 1)
	for _, n := range liveBlobFiles(db) {
		if err := os.Truncate(blobName(dir, n), 30); err != nil {
			t.Fatal(err)
		}
	}
	it, err := db.NewIter(&IterOptions{KeysOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	if it.Error() != nil || n != 100 {
		t.Errorf("key-only scan: %d keys, error %v", n, it.Error())
	}
	it.Close()
	it, err = db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if !it.First() {
		t.Fatalf("no first key: %v", it.Error())
	}
	if _, err := it.Value(); !errors.Is(err, ErrCorruption) {
		t.Errorf("value of a truncated blob file: %v, want ErrCorruption", err)
	}
	if it.Valid() || !errors.Is(it.Error(), ErrCorruption) {
		t.Errorf("iterator valid=%v error %v after a blob read error", it.Valid(), it.Error())
	}
}

// TestBlobCorruption damages a blob file three ways: a flipped byte fails
// the reads of that value (Get and a scan reading values), never returning
// other bytes; a truncated or deleted file fails Open with ErrCorruption
// naming the file, deleting nothing.
func TestBlobCorruption(t *testing.T) {
	build := func(t *testing.T) (string, uint64) {
		dir := t.TempDir()
		db := mustOpen(t, dir, blobTestOptions(nil))
		writeGeneration(t, db, 100, 1)
		nums := liveBlobFiles(db)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return dir, nums[len(nums)/2]
	}
	t.Run("flip", func(t *testing.T) {
		dir, num := build(t)
		name := blobName(dir, num)
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for off := 40; off < len(data)-30; off += 97 {
			data[off] ^= 0x20
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		db := mustOpen(t, dir, blobTestOptions(nil))
		defer db.Close()
		failed := 0
		for i := range 100 {
			var got []byte
			found, err := db.Get([]byte(fmt.Sprintf("key%04d", i)), func(v []byte) { got = bytes.Clone(v) })
			switch {
			case err != nil:
				if !errors.Is(err, ErrCorruption) {
					t.Errorf("key%04d: %v does not wrap ErrCorruption", i, err)
				}
				failed++
			case !found || string(got) != blobValue(i, 1):
				t.Fatalf("key%04d: wrong data %q (found %v)", i, got, found)
			}
		}
		if failed == 0 {
			t.Fatalf("no Get failed on a damaged blob file")
		}
		it, err := db.NewIter(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		seen := 0
		for ok := it.First(); ok; ok = it.Next() {
			v, err := it.Value()
			if err != nil {
				break
			}
			if string(v) != blobValue(seen, 1) {
				t.Fatalf("scan: wrong value at %s", it.Key())
			}
			seen++
		}
		if !errors.Is(it.Error(), ErrCorruption) || seen >= 100 {
			t.Errorf("scan over a damaged blob file saw %d values, error %v", seen, it.Error())
		}
	})
	for _, how := range []string{"truncate", "delete"} {
		t.Run(how, func(t *testing.T) {
			dir, num := build(t)
			name := blobName(dir, num)
			var err error
			if how == "truncate" {
				err = os.Truncate(name, 100)
			} else {
				err = os.Remove(name)
			}
			if err != nil {
				t.Fatal(err)
			}
			before := dirNames(t, dir)
			_, err = Open(dir, blobTestOptions(nil), Config{})
			if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), filepath.Base(name)) {
				t.Fatalf("open: %v, want ErrCorruption naming %s", err, filepath.Base(name))
			}
			if after := dirNames(t, dir); !slices.Equal(before, after) {
				t.Errorf("open changed the directory: %v -> %v", before, after)
			}
		})
	}
}

// TestBlobCrashBeforeManifestEdit puts a flush's blob files and table into
// a copy of the DB taken before the flush (the state a crash between
// writing them and the MANIFEST edit leaves): Open replays the WAL, loses
// nothing, and deletes only the unlisted outputs.
func TestBlobCrashBeforeManifestEdit(t *testing.T) {
	dir := t.TempDir()
	o := blobTestOptions(nil)
	// Only the explicit flush may write tables: a background compaction
	// or memtable switch running while the directory is copied would
	// make the copy another state than the one this test builds.
	o.DisableAutoCompactions = true
	o.WriteBufferSize = 4 << 20
	db := mustOpen(t, dir, o)
	writeGeneration(t, db, 50, 1)
	for i := range 50 {
		put(t, db, fmt.Sprintf("key%04d", i), blobValue(i, 2))
	}
	crashed := t.TempDir()
	copyDir(t, dir, crashed)
	before := dirNames(t, crashed)
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	var outputs []string
	for _, n := range dirNames(t, dir) {
		if !slices.Contains(before, n) && (strings.HasSuffix(n, ".blob") || strings.HasSuffix(n, ".sst")) {
			outputs = append(outputs, n)
			copyFile(t, filepath.Join(dir, n), filepath.Join(crashed, n))
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(outputs, func(n string) bool { return strings.HasSuffix(n, ".blob") }) {
		t.Fatalf("the flush wrote no blob file: %v", outputs)
	}
	db = mustOpen(t, crashed, o)
	defer db.Close()
	checkGeneration(t, db, 50, 2)
	after := dirNames(t, crashed)
	for _, n := range before {
		if strings.HasSuffix(n, ".blob") && !slices.Contains(after, n) {
			t.Errorf("open deleted live blob file %s", n)
		}
	}
	for _, n := range outputs {
		if slices.Contains(after, n) {
			t.Errorf("unlisted output %s was kept", n)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBlobCheckpoint: a checkpoint carries the blob files and opens with
// every value.
func TestBlobCheckpoint(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, blobTestOptions(nil))
	defer db.Close()
	writeGeneration(t, db, 60, 1)
	cp := filepath.Join(t.TempDir(), "cp")
	if err := db.Checkpoint(cp); err != nil {
		t.Fatal(err)
	}
	if len(blobFilesIn(t, cp)) == 0 {
		t.Fatalf("no blob file in the checkpoint")
	}
	copied := mustOpen(t, cp, blobTestOptions(nil))
	defer copied.Close()
	checkGeneration(t, copied, 60, 1)
}

// TestBlobGetAllocatesNothing: a Get of a value in a blob file allocates
// nothing once the pooled getter's blob buffer has grown.
func TestBlobGetAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items")
	}
	db := mustOpen(t, t.TempDir(), blobTestOptions(nil))
	defer db.Close()
	writeGeneration(t, db, 20, 1)
	key := []byte("key0007")
	n := 0
	fn := func(v []byte) { n += len(v) }
	if _, err := db.Get(key, fn); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(200, func() {
		if found, err := db.Get(key, fn); !found || err != nil {
			t.Fatalf("get: %v %v", found, err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Get of a blob value", allocs)
	}
}
