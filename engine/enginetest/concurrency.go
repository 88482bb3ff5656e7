package enginetest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// RunConcurrency runs writers and readers on one database at once. Each
// writer owns a disjoint key range and writes its keys in order, each value
// naming its key, with flushes in between; readers Get random keys and scan,
// and check that every value they see belongs to its key. At the end every
// written key must be readable. Run it under -race: it exists to show the
// engine's wrapper adds no data race of its own.
func RunConcurrency(t *testing.T, open func(dir string) engine.DB) {
	db := open(t.TempDir())
	defer mustClose(t, db)

	const writers, readers = 4, 4
	perWriter := 2000
	if testing.Short() {
		perWriter = 500
	}
	var done atomic.Bool
	var wg, readersWG sync.WaitGroup
	errs := make(chan error, writers+readers)

	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			key := make([]byte, 8)
			wo := &engine.WriteOptions{}
			batch := db.NewBatch()
			defer batch.Close()
			for i := 0; i < perWriter; i++ {
				binary.BigEndian.PutUint32(key, uint32(w))
				binary.BigEndian.PutUint32(key[4:], uint32(i))
				val := valueFor(key)
				var err error
				if i%3 == 0 {
					batch.Reset()
					batch.Put(key, val)
					err = db.Apply(batch, wo)
				} else {
					err = db.Put(key, val, wo)
				}
				if err == nil && w == 0 && i%500 == 499 {
					err = db.Flush()
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	for r := 0; r < readers; r++ {
		readersWG.Add(1)
		go func(r int) {
			defer readersWG.Done()
			key := make([]byte, 8)
			var bad []byte
			check := func(v []byte) {
				if !bytes.Equal(v, valueFor(key)) {
					bad = append(bad[:0], v...)
				}
			}
			for n := uint32(r); !done.Load(); n = n*1664525 + 1013904223 {
				binary.BigEndian.PutUint32(key, n%writers)
				binary.BigEndian.PutUint32(key[4:], (n>>8)%uint32(perWriter))
				if _, err := db.Get(key, check); err != nil {
					errs <- err
					return
				}
				if bad != nil {
					errs <- fmt.Errorf("Get(%x) returned %q", key, bad)
					return
				}
				if n%64 == 0 {
					if err := scanCheck(db); err != nil {
						errs <- err
						return
					}
				}
			}
		}(r)
	}
	wg.Wait()
	done.Store(true)
	readersWG.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	key := make([]byte, 8)
	for w := 0; w < writers; w++ {
		for i := 0; i < perWriter; i++ {
			binary.BigEndian.PutUint32(key, uint32(w))
			binary.BigEndian.PutUint32(key[4:], uint32(i))
			expectGet(t, db, key, string(valueFor(key)), true)
		}
	}
}

// valueFor derives a key's value from the key, so a reader can check any
// value it sees without coordinating with writers.
func valueFor(key []byte) []byte {
	return append([]byte("value-of-"), hexString(key)...)
}

// scanCheck walks the whole database once, checking order and values.
func scanCheck(db engine.DB) error {
	it, err := db.NewIter(nil)
	if err != nil {
		return err
	}
	var prev []byte
	for valid := it.First(); valid; valid = it.Next() {
		k := it.Key()
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			it.Close()
			return fmt.Errorf("scan out of order: %x then %x", prev, k)
		}
		prev = append(prev[:0], k...)
		v, err := it.Value()
		if err != nil {
			it.Close()
			return err
		}
		if !bytes.Equal(v, valueFor(k)) {
			it.Close()
			return fmt.Errorf("scan: value of %x is %q", k, v)
		}
	}
	if err := it.Error(); err != nil {
		it.Close()
		return err
	}
	return it.Close()
}
