package dbbench

import (
	"bytes"
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// setupFillSeekSeq: db_bench's WriteSeqSeekSeq writes --num keys whatever
// --writes says.
func setupFillSeekSeq(r *runner, _ *benchSpec) error {
	r.writes = r.num
	return nil
}

// benchFillSeekSeq is db_bench's WriteSeqSeekSeq (fillseekseq): fillseq's
// writes, untimed (the thread's stats restart after them), then for each
// key i in order a Seek to it, --seek_nexts steps (Prev with
// --reverse_iterator) each expected on the next key, and a Seek to the
// key reached; every Seek and step is one operation. db_bench asserts that
// each lands on the expected key; here a miss ends the run with an error.
func benchFillSeekSeq(r *runner, t *thread) error {
	if err := benchWriteSeq(r, t); err != nil {
		return err
	}
	t.stats.startAt(r, t.tid)
	db, _ := r.selectDB(t)
	it, err := db.NewIter(&engine.IterOptions{})
	if err != nil {
		return fmt.Errorf("iterator error: %v", err)
	}
	defer it.Close()
	key := r.keys.NewBuf()
	num := r.cfg.num
	nexts := int(r.cfg.seekNexts)
	expect := func(valid bool, i int64, what string) error {
		if valid && bytes.Equal(it.Key(), key) {
			t.stats.finishedOps(1, opSeek)
			return nil
		}
		if err := it.Error(); err != nil {
			return fmt.Errorf("iterator error: %v", err)
		}
		return fmt.Errorf("fillseekseq: %s did not land on key %d", what, i)
	}
	for i := int64(0); i < num; i++ {
		r.keys.Fill(key, i)
		if err := expect(it.SeekGE(key), i, "Seek"); err != nil {
			return err
		}
		for j := 0; j < nexts && i+1 < num; j++ {
			var valid bool
			if r.cfg.reverseIterator {
				valid = it.Prev()
			} else {
				valid = it.Next()
			}
			i++
			r.keys.Fill(key, i)
			if err := expect(valid, i, "a step"); err != nil {
				return err
			}
		}
		if err := expect(it.SeekGE(key), i, "Seek"); err != nil {
			return err
		}
	}
	return nil
}

// benchReadRandomFast is db_bench's ReadRandomFast: one DB-selection draw,
// then rounds of 100 Gets of rand & (pot-1), pot being the least power of
// two not below --num, so keys from num up are misses ("non-exist keys");
// the rate limiter and the stats see each round of 100, and the loop runs
// until more than --reads Gets were issued.
func benchReadRandomFast(r *runner, t *thread) error {
	db, _ := r.selectDB(t)
	pot := int64(1)
	for pot < r.cfg.num {
		pot <<= 1
	}
	key := r.keys.NewBuf()
	sink := &getSink{key: key, fold: r.foldReads}
	take := sink.take
	var read, found, nonexist int64
	lim := t.shared.readLimiter
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	for {
		for range 100 {
			k := int64(t.rand.Next()) & (pot - 1)
			r.keys.Fill(key, k)
			read++
			ok, err := db.Get(key, take)
			if err != nil {
				return fmt.Errorf("Get returned an error: %v", err)
			}
			if ok {
				found++
			}
			if k >= r.cfg.num {
				nonexist++
			}
		}
		if lim != nil {
			lim.request(100)
		}
		t.stats.finishedOps(100, opRead)
		if d.done(100) {
			break
		}
	}
	t.stats.reads += read
	t.stats.found += found
	t.stats.checksum += sink.checksum
	t.stats.addMessage(fmt.Sprintf("(%d of %d found, issued %d non-exist keys)\n", found, read, nonexist))
	return nil
}
