package lsm

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// blobOptionsFor returns modelOptions(seed) with blob files on: values of
// 20 bytes and more go to blob files of about 2 KiB, so that many files
// roll, with garbage collection as gc says.
func blobOptionsFor(seed int64, gc bool, startLevel int) *options.Options {
	o := modelOptions(seed)
	o.Extra = map[string]string{
		"enable_blob_files":                  "true",
		"min_blob_size":                      "20",
		"blob_file_size":                     "2048",
		"blob_file_starting_level":           fmt.Sprint(startLevel),
		"enable_blob_garbage_collection":     fmt.Sprint(gc),
		"blob_garbage_collection_age_cutoff": "0.5",
	}
	if seed%2 == 0 {
		o.Extra["blob_compression_type"] = "kSnappyCompression"
	}
	return o
}

// TestBlobRandomizedModel is TestRandomizedModel's workload (puts of values
// from 5 to 45 bytes, deletes, batches, snapshots, flushes, compactions,
// reopens) with blob files on, garbage collection on and off.
func TestBlobRandomizedModel(t *testing.T) {
	for _, gc := range []bool{false, true} {
		for seed := int64(1); seed <= 4; seed++ {
			if testing.Short() && seed > 2 {
				continue
			}
			t.Run(fmt.Sprint("gc=", gc, "/seed=", seed), func(t *testing.T) {
				rng := rand.New(rand.NewSource(seed))
				dir := t.TempDir()
				o := blobOptionsFor(seed, gc, int(seed%2))
				run := &modelRun{t: t, rng: rng, m: model{}, open: func() *DB { return mustOpen(t, dir, o) }}
				run.db = run.open()
				m := run.m
				for op := 0; op < 3000; op++ {
					db := run.db
					switch r := rng.Intn(100); {
					case r < 60:
						k := fmt.Sprintf("k%04d", rng.Intn(600))
						v := fmt.Sprintf("v%d-%s", op, make([]byte, rng.Intn(40)))
						put(t, db, k, v)
						m[k] = v
					case r < 75:
						k := fmt.Sprintf("k%04d", rng.Intn(600))
						del(t, db, k)
						delete(m, k)
					default:
						run.maintain(op)
					}
				}
				if err := run.db.Compact(nil, nil, -1); err != nil {
					t.Fatal(err)
				}
				checkBlobFilesOnDisk(t, run.db, dir)
				if n := len(run.db.def.current.blobs); n == 0 {
					t.Errorf("no blob file is live at the end")
				}
				run.finish()
			})
		}
	}
}

// checkBlobFilesOnDisk requires the blob files in dir to be those some
// version lists, after background work ended: none lost, none left over
// once old versions are released.
func checkBlobFilesOnDisk(t *testing.T, db *DB, dir string) {
	t.Helper()
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	db.mu.Lock()
	var live []string
	for num := range db.def.current.blobs {
		live = append(live, filepath.Base(blobName(dir, num)))
	}
	db.mu.Unlock()
	onDisk := blobFilesIn(t, dir)
	slices.Sort(live)
	slices.Sort(onDisk)
	for _, n := range live {
		if _, found := slices.BinarySearch(onDisk, n); !found {
			t.Errorf("live blob file %s is missing", n)
		}
	}
	if len(onDisk) > len(live)+8 {
		// Versions held by open snapshots keep a few more.
		t.Errorf("%d blob files on disk, %d live: %v vs %v", len(onDisk), len(live), onDisk, live)
	}
}
