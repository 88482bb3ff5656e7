package dbbench

import "fmt"

// benchReadRandomWriteRandom is db_bench's ReadRandomWriteRandom: in each
// round of 100 ops, readwritepercent Gets then the rest Puts, on rand % num
// keys (one DB-selection draw and one key draw per op). No bytes counted.
func benchReadRandomWriteRandom(r *runner, t *thread) error {
	gen := newValueGen(&r.shape, r.valueData)
	key := r.keys.NewBuf()
	sink := &getSink{key: key, fold: r.foldReads}
	take := sink.take
	var found, readsDone, writesDone int64
	getWeight, putWeight := 0, 0
	d := r.newDuration(int64(r.cfg.duration), r.readwrites)
	for !d.done(1) {
		db, _ := r.selectDB(t)
		r.keys.Fill(key, int64(t.rand.Next()%uint64(r.cfg.num)))
		if getWeight == 0 && putWeight == 0 {
			getWeight = int(r.cfg.readWritePercent)
			putWeight = 100 - getWeight
		}
		if getWeight > 0 {
			ok, err := db.Get(key, take)
			if err != nil {
				r.errf("get error: %v\n", err)
			} else if ok {
				found++
			}
			getWeight--
			readsDone++
			t.stats.finishedOps(1, opRead)
		} else if putWeight > 0 {
			if err := db.Put(key, gen.Generate(), &r.wo); err != nil {
				return fmt.Errorf("put error: %v", err)
			}
			putWeight--
			writesDone++
			t.stats.finishedOps(1, opWrite)
		}
	}
	t.stats.reads += readsDone
	t.stats.found += found
	t.stats.checksum += sink.checksum
	t.stats.addMessage(fmt.Sprintf("( reads:%d writes:%d total:%d found:%d)", readsDone, writesDone, r.readwrites, found))
	return nil
}

// benchUpdateRandom is db_bench's UpdateRandom: Get then Put of the same
// random key; bytes count the old value when found plus the new one.
func benchUpdateRandom(r *runner, t *thread) error {
	gen := newValueGen(&r.shape, r.valueData)
	key := r.keys.NewBuf()
	sink := &getSink{key: key, fold: r.foldReads}
	take := sink.take
	var found, bytes, reads int64
	d := r.newDuration(int64(r.cfg.duration), r.readwrites)
	for !d.done(1) {
		db, _ := r.selectDB(t)
		r.keys.Fill(key, int64(t.rand.Next()%uint64(r.cfg.num)))
		ok, err := db.Get(key, take)
		if err != nil {
			return fmt.Errorf("Get returned an error: %v", err)
		}
		reads++
		if ok {
			found++
			bytes += int64(len(key) + sink.valueLen + r.cfg.userTimestampSize)
		}
		if lim := t.shared.writeLimiter; lim != nil {
			lim.request(int64(len(key) + r.valueSize))
		}
		val := gen.Generate()
		if err := db.Put(key, val, &r.wo); err != nil {
			return fmt.Errorf("put error: %v", err)
		}
		bytes += int64(len(key) + len(val) + r.cfg.userTimestampSize)
		t.stats.finishedOps(1, opUpdate)
	}
	t.stats.reads += reads
	t.stats.found += found
	t.stats.checksum += sink.checksum
	t.stats.addBytes(bytes)
	t.stats.addMessage(fmt.Sprintf("( updates:%d found:%d)", r.readwrites, found))
	return nil
}

// benchCompact is db_bench's Compact: a full-range compaction per thread
// (to --compact_target_level when set). db_bench ignores CompactRange's
// status (a read-only DB's "Not supported" included: exit 0); so does
// this, saying what failed.
func benchCompact(r *runner, t *thread) error {
	db, _ := r.selectDB(t)
	if err := db.Compact(nil, nil, int(r.cfg.compactTargetLevel)); err != nil {
		r.compactErrorIgnored(err)
	}
	return nil
}
