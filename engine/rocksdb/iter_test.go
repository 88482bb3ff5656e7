//go:build rocksdb

package rocksdb

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// iterModel is the sorted content the iterator must walk.
type iterModel struct {
	keys [][]byte
	vals map[string][]byte
}

// fillIterDB writes n keys with values of mixed sizes: most are small, a
// few are larger than the initial batch buffer, so fills stop early
// (pending entry) and the buffer grows. Half the data is flushed, so the
// iterator merges the memtable with tables.
func fillIterDB(t *testing.T, db engine.DB, n int, rng *rand.Rand) *iterModel {
	t.Helper()
	m := &iterModel{vals: map[string][]byte{}}
	for i := 0; i < n; i++ {
		k := []byte(fmt.Sprintf("key%06d", i*3))
		size := rng.IntN(200)
		if rng.IntN(100) == 0 {
			size = batchBufBytes + rng.IntN(3*batchBufBytes)
		}
		v := bytes.Repeat([]byte{byte(i)}, size)
		if err := db.Put(k, v, nil); err != nil {
			t.Fatal(err)
		}
		m.keys = append(m.keys, k)
		m.vals[string(k)] = v
		if i == n/2 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	sort.Slice(m.keys, func(i, j int) bool { return bytes.Compare(m.keys[i], m.keys[j]) < 0 })
	return m
}

// TestIteratorRandomWalk drives long runs of Next and Prev (long enough to
// switch to batched fills), direction changes inside and at the edges of
// batches, and seeks, checking every position against the model.
func TestIteratorRandomWalk(t *testing.T) {
	for _, keysOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("keysOnly=%v", keysOnly), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			db := openWith(t, testOptions())(t.TempDir())
			defer db.Close()
			m := fillIterDB(t, db, 3000, rng)
			it, err := db.NewIter(&engine.IterOptions{KeysOnly: keysOnly})
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			pos := -1 // model position; -1 or len: invalid
			check := func(what string, valid bool) {
				t.Helper()
				want := pos >= 0 && pos < len(m.keys)
				if valid != want || it.Valid() != want {
					t.Fatalf("%s: valid %v/%v, want %v (pos %d)", what, valid, it.Valid(), want, pos)
				}
				if !want {
					return
				}
				k := m.keys[pos]
				if !bytes.Equal(it.Key(), k) {
					t.Fatalf("%s: key %q, want %q", what, it.Key(), k)
				}
				// With keysOnly, ask for the value only now and then, as a
				// caller ignoring the hint would.
				if !keysOnly || rng.IntN(50) == 0 {
					v, err := it.Value()
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(v, m.vals[string(k)]) {
						t.Fatalf("%s at %q: value of %d bytes, want %d", what, k, len(v), len(m.vals[string(k)]))
					}
				}
			}
			for op := 0; op < 400; op++ {
				switch rng.IntN(6) {
				case 0:
					pos = 0
					check("First", it.First())
				case 1:
					pos = len(m.keys) - 1
					check("Last", it.Last())
				case 2:
					target := []byte(fmt.Sprintf("key%06d", rng.IntN(9100)))
					pos = sort.Search(len(m.keys), func(i int) bool { return bytes.Compare(m.keys[i], target) >= 0 })
					check("SeekGE", it.SeekGE(target))
				case 3:
					target := []byte(fmt.Sprintf("key%06d", rng.IntN(9100)))
					pos = sort.Search(len(m.keys), func(i int) bool { return bytes.Compare(m.keys[i], target) > 0 }) - 1
					check("SeekLE", it.SeekLE(target))
				default:
					// A run of steps, sometimes long, in a random direction.
					d := 1
					if rng.IntN(2) == 0 {
						d = -1
					}
					steps := rng.IntN(8)
					if rng.IntN(3) == 0 {
						steps = rng.IntN(2000)
					}
					for s := 0; s < steps; s++ {
						if pos < 0 || pos >= len(m.keys) {
							// Stepping an invalid iterator leaves it invalid.
							var ok bool
							if d > 0 {
								ok = it.Next()
							} else {
								ok = it.Prev()
							}
							if ok || it.Valid() {
								t.Fatal("step from an invalid position became valid")
							}
							break
						}
						pos += d
						if d > 0 {
							check("Next", it.Next())
						} else {
							check("Prev", it.Prev())
						}
					}
				}
			}
			if err := it.Error(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestIteratorFullScans checks complete forward and backward scans, which
// run through the largest fills, with and without bounds.
func TestIteratorFullScans(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	m := fillIterDB(t, db, 5000, rng)
	lo, hi := m.keys[100], m.keys[4000]
	for _, o := range []*engine.IterOptions{nil, {LowerBound: lo, UpperBound: hi}} {
		want := m.keys
		if o != nil {
			want = m.keys[100:4000]
		}
		it, err := db.NewIter(o)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for ok := it.First(); ok; ok = it.Next() {
			v, _ := it.Value()
			if i >= len(want) || !bytes.Equal(it.Key(), want[i]) || !bytes.Equal(v, m.vals[string(want[i])]) {
				t.Fatalf("forward scan entry %d: key %q", i, it.Key())
			}
			i++
		}
		if i != len(want) {
			t.Fatalf("forward scan saw %d entries, want %d", i, len(want))
		}
		i = len(want) - 1
		for ok := it.Last(); ok; ok = it.Prev() {
			v, _ := it.Value()
			if i < 0 || !bytes.Equal(it.Key(), want[i]) || !bytes.Equal(v, m.vals[string(want[i])]) {
				t.Fatalf("backward scan entry %d: key %q", i, it.Key())
			}
			i--
		}
		if i != -1 {
			t.Fatalf("backward scan stopped at %d", i)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFillSize(t *testing.T) {
	for run, want := range map[int]int{0: 0, 1: 0, 15: 0, 16: 2, 100: 12, 1024: maxBatchEntries, 1 << 20: maxBatchEntries} {
		if got := fillSize(run); got != want {
			t.Errorf("fillSize(%d) = %d, want %d", run, got, want)
		}
	}
}
