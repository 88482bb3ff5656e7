package lsm

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"
)

// model is the reference: a map from key to value at each sequence.
type model map[string]string

func (m model) clone() model {
	c := make(model, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func (m model) sortedKeys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type snapModel struct {
	snap  *Snapshot
	state model
}

func checkDB(t *testing.T, db *DB, m model, snap *Snapshot, rng *rand.Rand, label string) {
	t.Helper()
	// Point reads, including misses.
	for i := 0; i < 50; i++ {
		k := fmt.Sprintf("k%04d", rng.Intn(600))
		var got string
		var found bool
		var err error
		if snap != nil {
			found, err = snap.Get([]byte(k), func(v []byte) { got = string(v) })
		} else {
			found, err = db.Get([]byte(k), func(v []byte) { got = string(v) })
		}
		if err != nil {
			t.Fatalf("%s: get %s: %v", label, k, err)
		}
		want, ok := m[k]
		if found != ok || got != want && ok {
			t.Fatalf("%s: get %s = %q,%v want %q,%v", label, k, got, found, want, ok)
		}
	}
	// Full scans both ways.
	keys := m.sortedKeys()
	it, err := db.NewIter(&IterOptions{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		if i >= len(keys) || string(it.Key()) != keys[i] {
			t.Fatalf("%s: forward scan position %d got %q", label, i, it.Key())
		}
		if v, err := it.Value(); err != nil || string(v) != m[keys[i]] {
			t.Fatalf("%s: forward value of %s = %q %v", label, keys[i], v, err)
		}
		i++
	}
	if i != len(keys) {
		t.Fatalf("%s: forward scan saw %d keys, want %d", label, i, len(keys))
	}
	i = len(keys) - 1
	for ok := it.Last(); ok; ok = it.Prev() {
		if i < 0 || string(it.Key()) != keys[i] {
			t.Fatalf("%s: reverse scan position %d got %q", label, i, it.Key())
		}
		if rng.Intn(3) == 0 {
			if v, err := it.Value(); err != nil || string(v) != m[keys[i]] {
				t.Fatalf("%s: reverse value of %s = %q %v", label, keys[i], v, err)
			}
		}
		i--
	}
	if i != -1 {
		t.Fatalf("%s: reverse scan stopped at %d", label, i)
	}
	// Random seeks mixed with steps in both directions.
	for n := 0; n < 20; n++ {
		k := fmt.Sprintf("k%04d", rng.Intn(600))
		pos := sort.SearchStrings(keys, k)
		ok := it.SeekGE([]byte(k))
		if ok != (pos < len(keys)) || ok && string(it.Key()) != keys[pos] {
			t.Fatalf("%s: SeekGE(%s) = %v %q", label, k, ok, it.Key())
		}
		for s := 0; s < 5 && ok; s++ {
			if rng.Intn(2) == 0 {
				ok, pos = it.Next(), pos+1
			} else {
				ok, pos = it.Prev(), pos-1
			}
			want := pos >= 0 && pos < len(keys)
			if ok != want || ok && string(it.Key()) != keys[pos] {
				t.Fatalf("%s: step after SeekGE(%s): %v %q, want %v", label, k, ok, it.Key(), want)
			}
		}
		le := sort.SearchStrings(keys, k)
		if le == len(keys) || keys[le] != k {
			le--
		}
		ok = it.SeekLE([]byte(k))
		if ok != (le >= 0) || ok && string(it.Key()) != keys[le] {
			t.Fatalf("%s: SeekLE(%s) = %v %q", label, k, ok, it.Key())
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRandomizedModel(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			dir := t.TempDir()
			o := testOptions()
			o.WriteBufferSize = 32 << 10
			o.MaxWriteBufferNumber = 3
			o.MinWriteBufferNumberToMerge = 1 + int(seed%2)
			o.NumLevels = 4 + int(seed%3)
			o.TargetFileSizeBase = 16 << 10
			o.MaxBytesForLevelBase = 64 << 10
			o.Memtablerep = []string{"skip_list", "cspp", "offset_skiplist", "skip_list"}[seed-1]
			o.CompressionType = []string{"none", "snappy", "zstd", "lz4"}[seed-1]
			db := mustOpen(t, dir, o)
			m := model{}
			var snaps []snapModel
			for op := 0; op < 3000; op++ {
				switch r := rng.Intn(100); {
				case r < 55:
					k := fmt.Sprintf("k%04d", rng.Intn(600))
					v := fmt.Sprintf("v%d-%s", op, make([]byte, rng.Intn(40)))
					put(t, db, k, v)
					m[k] = v
				case r < 70:
					k := fmt.Sprintf("k%04d", rng.Intn(600))
					del(t, db, k)
					delete(m, k)
				case r < 78:
					b := NewBatch()
					for j := rng.Intn(10); j >= 0; j-- {
						k := fmt.Sprintf("k%04d", rng.Intn(600))
						if rng.Intn(3) == 0 {
							b.Delete([]byte(k))
							delete(m, k)
						} else {
							v := fmt.Sprint("b", op, j)
							b.Put([]byte(k), []byte(v))
							m[k] = v
						}
					}
					if err := db.Write(b, WriteOptions{Sync: rng.Intn(10) == 0}); err != nil {
						t.Fatal(err)
					}
				case r < 80:
					if len(snaps) < 4 {
						snaps = append(snaps, snapModel{db.NewSnapshot(), m.clone()})
					}
				case r < 82:
					if len(snaps) > 0 {
						i := rng.Intn(len(snaps))
						snaps[i].snap.Release()
						snaps = append(snaps[:i], snaps[i+1:]...)
					}
				case r < 84:
					if err := db.Flush(); err != nil {
						t.Fatal(err)
					}
				case r < 85:
					if err := db.Compact(nil, nil, -1); err != nil {
						t.Fatal(err)
					}
				case r < 86:
					lo := fmt.Sprintf("k%04d", rng.Intn(600))
					if err := db.Compact([]byte(lo), nil, -1); err != nil {
						t.Fatal(err)
					}
				case r < 92:
					checkDB(t, db, m, nil, rng, fmt.Sprintf("op %d", op))
				case r < 96:
					if len(snaps) > 0 {
						s := snaps[rng.Intn(len(snaps))]
						checkDB(t, db, s.state, s.snap, rng, fmt.Sprintf("op %d snapshot %d", op, s.snap.Seq()))
					}
				default:
					if rng.Intn(4) == 0 {
						for _, s := range snaps {
							s.snap.Release()
						}
						snaps = nil
						if err := db.Close(); err != nil {
							t.Fatal(err)
						}
						db = mustOpen(t, dir, o)
						checkDB(t, db, m, nil, rng, fmt.Sprintf("op %d reopened", op))
					}
				}
			}
			if err := db.WaitForCompactions(); err != nil {
				t.Fatal(err)
			}
			checkDB(t, db, m, nil, rng, "final")
			for _, s := range snaps {
				checkDB(t, db, s.state, s.snap, rng, "final snapshot")
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
