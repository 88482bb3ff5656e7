package pebble

import (
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// fillForAllocs writes n 16-byte keys with 100-byte values and returns the
// DB. It uses db_bench's default options: a 64 MiB memtable, so no background
// flush runs (and allocates) while allocations are counted.
func fillForAllocs(t testing.TB, n int, flush bool) engine.DB {
	db := openTest(t, options.Default())(t.TempDir())
	key, val := make([]byte, 16), make([]byte, 100)
	for i := 0; i < n; i++ {
		binary.BigEndian.PutUint64(key, uint64(i))
		if err := db.Put(key, val, nil); err != nil {
			t.Fatal(err)
		}
	}
	if flush {
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestAllocs shows that the hot paths allocate nothing per operation once
// Pebble's pools are warm: Get (memtable and table hits), Put, Apply of a
// reused batch, iterator steps and seeks, and NewIter+Close.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	for _, flushed := range []bool{false, true} {
		name := "memtable"
		if flushed {
			name = "table"
		}
		t.Run(name, func(t *testing.T) {
			const n = 1000
			db := fillForAllocs(t, n, flushed)
			defer db.Close()
			key := make([]byte, 16)
			var sink int
			fn := func(v []byte) { sink += len(v) }
			i := 0
			checkAtMost := func(what string, want float64, op func()) {
				t.Helper()
				op() // warm the pools
				a := testing.AllocsPerRun(500, op)
				if a > want {
					t.Errorf("%s (%s): %.1f allocations per op, want <= %.0f", what, name, a, want)
				}
				t.Logf("%s (%s): %.1f allocations per op", what, name, a)
			}
			check := func(what string, op func()) { t.Helper(); checkAtMost(what, 0, op) }
			// A Get served by a table costs one allocation inside Pebble:
			// every table point lookup builds a block-property filter
			// (sstable.(*Reader).TryAddBlockPropertyFilterForHideObsoletePoints,
			// 38 B). A memtable hit allocates nothing.
			getAllocs := 0.0
			if flushed {
				getAllocs = 1
			}
			checkAtMost("Get", getAllocs, func() {
				i = (i + 7) % n
				binary.BigEndian.PutUint64(key, uint64(i))
				if found, err := db.Get(key, fn); err != nil || !found {
					t.Fatalf("Get: %v %v", found, err)
				}
			})
			it, err := db.NewIter(nil)
			if err != nil {
				t.Fatal(err)
			}
			it.First()
			check("Iterator.Next", func() {
				if !it.Next() {
					it.First()
				}
				sink += len(it.Key())
				v, _ := it.Value()
				sink += len(v)
			})
			check("Iterator.SeekGE", func() {
				i = (i + 7) % n
				binary.BigEndian.PutUint64(key, uint64(i))
				it.SeekGE(key)
			})
			check("Iterator.SeekLE", func() {
				i = (i + 7) % n
				binary.BigEndian.PutUint64(key, uint64(i))
				it.SeekLE(key)
			})
			it.Close()
			// The driver keeps one IterOptions per thread; a literal built
			// per call would escape and be the only allocation here.
			iterOpts := &engine.IterOptions{LowerBound: make([]byte, 16)}
			check("NewIter+Close", func() {
				it, err := db.NewIter(iterOpts)
				if err != nil {
					t.Fatal(err)
				}
				it.SeekGE(key)
				it.Close()
			})
			val := make([]byte, 100)
			wo := &engine.WriteOptions{}
			check("Put", func() {
				i = (i + 7) % n
				binary.BigEndian.PutUint64(key, uint64(i))
				if err := db.Put(key, val, wo); err != nil {
					t.Fatal(err)
				}
			})
			b := db.NewBatch()
			defer b.Close()
			check("Apply", func() {
				b.Reset()
				for j := 0; j < 10; j++ {
					i = (i + 7) % n
					binary.BigEndian.PutUint64(key, uint64(i))
					b.Put(key, val)
				}
				if err := db.Apply(b, wo); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}
