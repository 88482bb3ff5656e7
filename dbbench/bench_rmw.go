package dbbench

import (
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// This file holds db_bench's read-modify-write benchmarks that do the
// modify step in the driver (no merge operator): each op Gets a random key
// (rand % num, after the DB-selection draw), computes a new value from the
// old one and Puts it back. Every thread keeps one value buffer for the
// whole run, so an op allocates nothing once the buffer has grown.

// benchXORUpdateRandom is db_bench's XORUpdateRandom: the new value is the
// old one XORed byte by byte with the next len(old) bytes of the value
// generator. As in db_bench, the buffer the Get fills keeps its previous
// contents when the key is not found (RocksDB leaves the caller's string
// untouched on NotFound), so a missing key is written with that many
// generator bytes, XORed with nothing; the first miss of a thread writes an
// empty value. Ops are of db_bench's default kind (others), with no bytes, and the
// message is "( updates:N found:M)".
func benchXORUpdateRandom(r *runner, t *thread) error {
	gen := newValueGen(&r.shape, r.valueData)
	key := r.keys.NewBuf()
	old := &valueCopy{}
	take := old.take
	var newValue []byte
	var found, reads int64
	d := r.newDuration(int64(r.cfg.duration), r.readwrites)
	for !d.done(1) {
		db, ok, err := r.getRandomKey(t, key, take)
		if err != nil {
			return err
		}
		pad := gen.GenerateN(len(old.buf))
		newValue = append(newValue[:0], pad...)
		if ok {
			found++
			for i, b := range old.buf {
				newValue[i] ^= b
			}
		}
		if err := db.Put(key, newValue, &r.wo); err != nil {
			return fmt.Errorf("put error: %v", err)
		}
		reads++
		t.stats.finishedOps(1, opOthers)
	}
	t.stats.reads += reads
	t.stats.found += found
	t.stats.addMessage(fmt.Sprintf("( updates:%d found:%d)", r.readwrites, found))
	return nil
}

// benchAppendRandom is db_bench's AppendRandom: the new value is the old
// one, a ',' when the old one is not empty, and the next generated value
// (StringAppendOperator's layout); a missing key counts as an empty old
// value. Bytes count the key with the old value when found plus the key
// with the new value, as UpdateRandom does; ops are updates and the message
// is "( updates:N found:M)".
func benchAppendRandom(r *runner, t *thread) error {
	gen := newValueGen(&r.shape, r.valueData)
	key := r.keys.NewBuf()
	value := &valueCopy{}
	take := value.take
	var found, bytes, reads int64
	d := r.newDuration(int64(r.cfg.duration), r.readwrites)
	for !d.done(1) {
		db, ok, err := r.getRandomKey(t, key, take)
		if err != nil {
			return err
		}
		if ok {
			found++
			bytes += int64(len(key) + len(value.buf) + r.cfg.userTimestampSize)
		} else {
			value.buf = value.buf[:0]
		}
		operand := gen.Generate()
		if len(value.buf) > 0 {
			value.buf = append(value.buf, ',')
		}
		value.buf = append(value.buf, operand...)
		if err := db.Put(key, value.buf, &r.wo); err != nil {
			return fmt.Errorf("put error: %v", err)
		}
		bytes += int64(len(key) + len(value.buf) + r.cfg.userTimestampSize)
		reads++
		t.stats.finishedOps(1, opUpdate)
	}
	t.stats.reads += reads
	t.stats.found += found
	t.stats.addBytes(bytes)
	t.stats.addMessage(fmt.Sprintf("( updates:%d found:%d)", r.readwrites, found))
	return nil
}

// valueCopy is a Get callback that copies the value into a buffer reused
// for every Get of a thread, like the std::string db_bench passes to Get.
type valueCopy struct {
	buf []byte
}

func (c *valueCopy) take(v []byte) {
	c.buf = append(c.buf[:0], v...)
}

// getRandomKey is the read half of a read-modify-write op: the
// DB-selection draw, the key rand % num into key, and its Get into take.
// It returns the database to write back to and whether the key was
// found, or the Get's error.
func (r *runner) getRandomKey(t *thread, key []byte, take func([]byte)) (engine.DB, bool, error) {
	db, _ := r.selectDB(t)
	r.keys.Fill(key, int64(t.rand.Next()%uint64(r.cfg.num)))
	ok, err := db.Get(key, take)
	if err != nil {
		return db, false, fmt.Errorf("Get returned an error: %v", err)
	}
	return db, ok, nil
}
