package dbbench

import (
	"bytes"
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// benchRandomWithVerify is db_bench's RandomWithVerify: --readwrites
// operations (the larger of --reads and --writes) on keys rand mod
// --numdistinct, laid out for numdistinct keys, in rounds of 100:
// --readwritepercent GetMany, --deletepercent DeleteMany, the rest
// PutMany. PutMany writes one value under the key with each of the
// suffixes "0", "1" and "2" in one batch, DeleteMany deletes the three in
// one batch, and GetMany reads the three from one point in time and
// reports on stderr when they differ ("inconsistent values for key ...");
// found counts GetManys whose last key ("2") was found.
//
// db_bench reads the three under a snapshot; this driver reads them through
// one iterator, which every engine gives a point-in-time view, since the
// engine contract has no snapshots.
func benchRandomWithVerify(r *runner, t *thread) error {
	// db_bench reports its operations against db_.db, not the one used.
	t.stats.pinIntervalDB(r.singleDB())
	gen := newValueGen(&r.shape, r.valueData)
	keys := r.keys
	keys.num = r.cfg.numDistinct
	key := keys.NewBuf()
	many := newManyKeys(len(key))
	batches := r.batchPerDB()
	defer closeBatches(batches)
	var found, gets, puts, dels int64
	getWeight, putWeight, delWeight := 0, 0, 0
	for i := int64(0); i < r.readwrites; i++ {
		id := r.selectSlot(t)
		db, _ := r.slot(id)
		batch := batches[id]
		if getWeight == 0 && putWeight == 0 && delWeight == 0 {
			getWeight = int(r.cfg.readWritePercent)
			delWeight = int(r.cfg.deletePercent)
			putWeight = 100 - getWeight - delWeight
		}
		keys.Fill(key, int64(t.rand.Next()%uint64(r.cfg.numDistinct)))
		many.set(key)
		switch {
		case getWeight > 0:
			last, err := r.getMany(db, many)
			if err != nil {
				return err
			}
			if last {
				found++
			}
			getWeight--
			gets++
			t.stats.finishedOps(1, opRead)
		case putWeight > 0:
			value := gen.Generate()
			batch.Reset()
			for _, k := range many.keys {
				batch.Put(k, value)
			}
			if err := db.Apply(batch, &r.wo); err != nil {
				return fmt.Errorf("putmany error: %v", err)
			}
			putWeight--
			puts++
			t.stats.finishedOps(1, opWrite)
		case delWeight > 0:
			batch.Reset()
			for _, k := range many.keys {
				batch.Delete(k)
			}
			if err := db.Apply(batch, &r.wo); err != nil {
				return fmt.Errorf("deletemany error: %v", err)
			}
			delWeight--
			dels++
			t.stats.finishedOps(1, opDelete)
		}
	}
	t.stats.reads += gets
	t.stats.found += found
	t.stats.addMessage(fmt.Sprintf("( get:%d put:%d del:%d total:%d found:%d)", gets, puts, dels, r.readwrites, found))
	return nil
}

// manyKeys are a key with each of the suffixes "0", "1" and "2", and the
// values read for them.
type manyKeys struct {
	base   []byte
	keys   [3][]byte
	values [3][]byte
}

func newManyKeys(keyLen int) *manyKeys {
	m := &manyKeys{base: make([]byte, keyLen)}
	for i := range m.keys {
		m.keys[i] = make([]byte, keyLen+1)
		m.keys[i][keyLen] = byte('0' + i)
	}
	return m
}

func (m *manyKeys) set(key []byte) {
	copy(m.base, key)
	for _, k := range m.keys {
		copy(k, key)
	}
}

// getMany is db_bench's GetMany: the three values from one point in time,
// a missing key reading as empty, a line on stderr when they differ. It
// reports whether the last key was found.
func (r *runner) getMany(db engine.DB, m *manyKeys) (lastFound bool, err error) {
	it, err := db.NewIter(&engine.IterOptions{})
	if err != nil {
		return false, fmt.Errorf("get error: %v", err)
	}
	defer it.Close()
	for i, k := range m.keys {
		m.values[i] = m.values[i][:0]
		found := it.SeekGE(k) && bytes.Equal(it.Key(), k)
		if !found {
			if err := it.Error(); err != nil {
				return false, fmt.Errorf("get error: %v", err)
			}
			lastFound = false
			continue
		}
		v, err := it.Value()
		if err != nil {
			return false, fmt.Errorf("get error: %v", err)
		}
		m.values[i] = append(m.values[i], v...)
		lastFound = true
	}
	if !bytes.Equal(m.values[0], m.values[1]) || !bytes.Equal(m.values[1], m.values[2]) {
		r.out.Flush()
		r.errf("inconsistent values for key %s: %s, %s, %s\n", m.base, m.values[0], m.values[1], m.values[2])
	}
	return lastFound, nil
}
