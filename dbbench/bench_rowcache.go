package dbbench

import "fmt"

// benchReadToRowCache is db_bench's ReadToRowCache (readtorowcache): each
// thread Gets key numbers 0 .. --num-1 in order (the DB's own keys, since
// --use_existing_keys is required), one op each, counting key and value
// bytes of the keys found, with the read rate limiter's request after
// every 256th read but one; its message is "(F of N found)". It fills
// the engine's row cache (--row_cache_size, also required); an engine
// without one says so at open and the reads run all the same. With column
// families each Get goes to the family db_bench picks. A read
// error ends the run in db_bench's words (db_bench then aborts).
func benchReadToRowCache(r *runner, t *thread) error {
	key := r.keys.NewBuf()
	var read, found, nbytes int64
	var vlen int
	take := func(v []byte) { vlen = len(v) }
	lim := t.shared.readLimiter
	for k := int64(0); k < r.cfg.num; k++ {
		r.keys.Fill(key, k)
		read++
		db := r.db
		if r.families != nil {
			// db_bench picks the family after stepping to the next key
			// number, so key k is looked up in the family of k+1.
			db = r.families.family(k + 1)
		}
		ok, err := db.Get(key, take)
		if err != nil {
			return fmt.Errorf("Get returned an error: %v", err)
		}
		if ok {
			found++
			nbytes += int64(len(key) + vlen)
		}
		if lim != nil && read%256 == 255 {
			lim.request(256)
		}
		t.stats.finishedOps(1, opRead)
	}
	t.stats.addBytes(nbytes)
	t.stats.addMessage(fmt.Sprintf("(%d of %d found)\n", found, read))
	return nil
}

// setupReadToRowCache refuses, in db_bench's words, a run without the
// existing keys and the row cache the benchmark is for.
func setupReadToRowCache(r *runner, _ *benchSpec) error {
	if r.cfg.existingKeys && r.opts.RowCacheSize != 0 {
		return nil
	}
	r.out.Flush()
	r.errf("Please set use_existing_keys to true and specify a row cache size in readtorowcache benchmark\n")
	return errExit{"readtorowcache without existing keys or a row cache"}
}
