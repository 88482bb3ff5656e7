//go:build rocksdb

package rocksdb

import (
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// TestHotPathsDoNotAllocate checks the engine's promise that Put, Get,
// batches, MultiGet and iterator steps allocate nothing on the Go heap.
func TestHotPathsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	key := make([]byte, 16)
	val := make([]byte, 100)
	for i := 0; i < 1000; i++ {
		binary.BigEndian.PutUint64(key[8:], uint64(i))
		if err := db.Put(key, val, nil); err != nil {
			t.Fatal(err)
		}
	}
	wo := &engine.WriteOptions{DisableWAL: true}
	var sink int
	fn := func(v []byte) { sink += len(v) }
	i := uint64(0)
	check := func(name string, f func()) {
		t.Helper()
		if n := testing.AllocsPerRun(200, f); n != 0 {
			t.Errorf("%s: %.1f allocs/op, want 0", name, n)
		}
	}
	check("Put", func() {
		i++
		binary.BigEndian.PutUint64(key[8:], i%1000)
		db.Put(key, val, wo)
	})
	check("Get", func() {
		i++
		binary.BigEndian.PutUint64(key[8:], i%1000)
		db.Get(key, fn)
	})
	check("GetMissing", func() {
		i++
		binary.BigEndian.PutUint64(key[8:], 5000+i)
		db.Get(key, fn)
	})
	check("Delete", func() {
		i++
		binary.BigEndian.PutUint64(key[8:], 9000+i)
		db.Delete(key, wo)
	})
	b := db.NewBatch()
	defer b.Close()
	check("Batch", func() {
		for j := uint64(0); j < 8; j++ {
			binary.BigEndian.PutUint64(key[8:], (i+j)%1000)
			b.Put(key, val)
		}
		db.Apply(b, wo)
		b.Reset()
	})
	mg := db.(engine.Runner)
	keys := make([][]byte, 8)
	for j := range keys {
		keys[j] = make([]byte, 16)
		binary.BigEndian.PutUint64(keys[j][8:], uint64(j*3))
	}
	found := make([]bool, len(keys))
	mfn := func(int, []byte) { sink++ }
	mg.MultiGet(keys, found, mfn) // warm the scratch pool
	check("MultiGet", func() { mg.MultiGet(keys, found, mfn) })
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	it.First()
	check("IterNext", func() {
		if !it.Next() {
			it.First()
		}
		sink += len(it.Key())
		v, _ := it.Value()
		sink += len(v)
	})
	check("IterSeek", func() {
		i++
		binary.BigEndian.PutUint64(key[8:], i%1000)
		it.SeekGE(key)
		it.SeekLE(key)
	})
	_ = sink
}
