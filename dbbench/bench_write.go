package dbbench

import "fmt"
import "github.com/godbbench/godbbench/internal/cxxrand"

type writeMode int

const (
	writeSequential writeMode = iota
	writeRandom
	writeUniqueRandom
)

func benchWriteSeq(r *runner, t *thread) error          { return r.doWrite(t, writeSequential) }
func benchWriteRandom(r *runner, t *thread) error       { return r.doWrite(t, writeRandom) }
func benchWriteUniqueRandom(r *runner, t *thread) error { return r.doWrite(t, writeUniqueRandom) }

// doWrite is db_bench's DoWrite: batches of entries_per_batch Puts into
// one database each. With --num_multi_db > 1 every database has its own
// key generator and the run writes num (or writes) entries per database:
// the random modes draw the batch's database from the thread's random
// numbers (a draw thrown away with one database), the sequential mode
// fills the databases one after the other. Each key is then the next
// sequential number, rand % num, or the next of a shuffled permutation.
// --duration applies only in random mode. With column families each Put
// goes to the family of its key's number (familyWrites).
func (r *runner) doWrite(t *thread, mode writeMode) error {
	var seconds int64
	if mode == writeRandom {
		seconds = int64(r.cfg.duration)
	}
	numOps := r.writes
	if numOps == 0 {
		numOps = r.num
	}
	maxOps := numOps * int64(r.dbCount())
	d := r.newDuration(seconds, maxOps)
	// db_bench's key generator draws from --num plus
	// --max_num_range_tombstones keys, range deletions or not.
	keyNum := r.num + r.cfg.rangeDeletes.max
	var perm []uint64
	if mode == writeUniqueRandom {
		perm = make([]uint64, keyNum)
		for i := range perm {
			perm[i] = uint64(i)
		}
		cxxrand.Shuffle(perm, uint32(r.seedBase))
	}
	shaped, err := r.cfg.uniqueShape.shaped(mode, r.cfg.rangeDeletes.on())
	if err != nil {
		return err
	}
	if r.num != r.cfg.num {
		t.stats.addMessage(fmtOps(r.num))
	}
	keySrc := writeKeys{mode: mode, num: keyNum, perm: perm, rand: t.rand}
	if shaped {
		if r.multi != nil {
			return errUniqueShapedSeveralDBs
		}
		bytes, err := r.writeUniqueShaped(t, &d, &keySrc)
		t.stats.addBytes(bytes)
		return err
	}
	gen := newValueGen(&r.shape, r.valueData)
	perBatch := r.entriesPerBatch
	if perBatch == 1 && keyNum != 0 && !r.cfg.rangeDeletes.on() && !r.cfg.sineWrite.on && r.families == nil && r.multi == nil {
		// A one-entry batch is a Put: same effect, no batch encoding.
		bytes, err := r.writeRuns(t, &d, &keySrc, gen)
		t.stats.addBytes(bytes)
		return err
	}
	targets, err := r.newWriteTargets(keySrc, maxOps)
	if err != nil {
		return err
	}
	defer targets.close()
	key := r.keys.NewBuf()
	var bytes int64
	entryOverhead := int64(r.keySize + r.cfg.userTimestampSize)
	rd := newRangeDeleter(r)
	var written int64
	lastSine := t.stats.start
	id, nextSeqDBAt := 0, numOps
	for keyNum != 0 && !d.done(perBatch) {
		if err := targets.enter(&d); err != nil {
			return err
		}
		if mode != writeSequential {
			id = int(t.rand.Next() % uint64(len(targets)))
		} else if written >= nextSeqDBAt {
			// The sequential fill loads the databases in turn.
			nextSeqDBAt += numOps
			if id++; id >= len(targets) {
				return errFilledAllDBs
			}
		}
		batch, keys, fams := targets[id].batch, &targets[id].keys, targets[id].fams
		t.stats.intervalDB = targets[id].db // db_bench's FinishedOps(db_with_cfh->db)
		var batchBytes int64
		batch.Reset()
		for j := int64(0); j < perBatch; j++ {
			k := keys.next()
			r.keys.Fill(key, k)
			val := gen.Generate()
			if fams != nil {
				fams.put(k, key, val)
			} else {
				batch.Put(key, val)
			}
			batchBytes += int64(len(val)) + entryOverhead
			written++
			if rd.c.due(written) {
				rd.addTo(r, batch, keys.next())
			}
		}
		if lim := t.shared.writeLimiter; lim != nil {
			lim.request(batchBytes)
			t.stats.resetLastOpTime()
		}
		if err := targets[id].db.Apply(batch, &r.wo); err != nil {
			return fmt.Errorf("put error: %v", err)
		}
		bytes += batchBytes
		t.stats.finishedOps(perBatch, opWrite)
		if r.cfg.sineWrite.on {
			r.followSineWriteRate(t, &lastSine)
		}
	}
	rd.report(r)
	t.stats.addBytes(bytes)
	return nil
}

// writeKeys draws doWrite's key numbers: the next sequential number, rand %
// num, or the next of a shuffled permutation (then sequential past its
// end).
type writeKeys struct {
	mode writeMode
	num  int64
	seq  int64 // numbers drawn so far in the sequential and unique modes
	perm []uint64
	rand *cxxrand.MT64
}

func (k *writeKeys) next() int64 {
	switch k.mode {
	case writeSequential:
		k.seq++
		return k.seq - 1
	case writeRandom:
		return int64(k.rand.Next() % uint64(k.num))
	default:
		k.seq++
		if k.seq <= int64(len(k.perm)) {
			return int64(k.perm[k.seq-1])
		}
		return k.seq - 1
	}
}

func fmtOps(n int64) string { return "(" + itoa(n) + " ops)" }

// doDelete is db_bench's DoDelete: batches of deletes, sequential from 0 or
// rand % num, into the database of one selection draw per batch; duration
// only for random.
func (r *runner) doDelete(t *thread, seq bool) error {
	var seconds int64
	if !seq {
		seconds = int64(r.cfg.duration)
	}
	d := r.newDuration(seconds, r.deletes)
	batches := r.batchPerDB()
	defer closeBatches(batches)
	key := r.keys.NewBuf()
	var i int64
	perBatch := r.entriesPerBatch
	for !d.done(perBatch) {
		id := r.selectSlot(t)
		db, _ := r.slot(id)
		batch := batches[id]
		batch.Reset()
		for j := int64(0); j < perBatch; j++ {
			var k int64
			if seq {
				k = i + j
			} else {
				k = int64(t.rand.Next() % uint64(r.cfg.num))
			}
			r.keys.Fill(key, k)
			batch.Delete(key)
		}
		if err := db.Apply(batch, &r.wo); err != nil {
			return fmt.Errorf("del error: %v", err)
		}
		t.stats.finishedOps(perBatch, opDelete)
		i += perBatch
	}
	return nil
}

func benchDeleteSeq(r *runner, t *thread) error    { return r.doDelete(t, true) }
func benchDeleteRandom(r *runner, t *thread) error { return r.doDelete(t, false) }

// bgWriter is db_bench's BGWriter: the extra thread 0 of *whilewriting
// benchmarks, excluded from the merged stats, writing random keys until the
// readers finish (or --writes with --finish_after_writes).
func (r *runner) bgWriter(t *thread) error { return r.bgWrites(t, false) }

// bgWrites is BGWriter's loop, with Merges instead of Puts for the
// *whilemerging benchmarks (counted as writes, as db_bench counts them).
func (r *runner) bgWrites(t *thread, merge bool) error {
	gen := newValueGen(&r.shape, r.valueData)
	t.stats.exclude = true
	var lim *rateLimiter
	if r.cfg.writeRateLimit > 0 {
		lim = newRateLimiter(float64(r.cfg.writeRateLimit))
	}
	key := r.keys.NewBuf()
	var bytes, written int64
	hinted := false
	rd := newRangeDeleter(r)
	for {
		db, _ := r.selectDB(t)
		if r.cfg.finishAfterWrites && written == r.writes {
			r.errf("Exiting the writer after %d writes...\n", written)
			break
		}
		if t.shared.othersDone() {
			if !r.cfg.finishAfterWrites {
				break
			}
			if !hinted {
				r.errf("Reads are finished. Have %d more writes to do\n", r.writes-written)
				hinted = true
			}
		}
		r.keys.Fill(key, int64(t.rand.Next()%uint64(r.cfg.num)))
		val := gen.Generate()
		var err error
		if merge {
			err = db.Merge(key, val, &r.wo)
		} else {
			err = db.Put(key, val, &r.wo)
		}
		if err != nil {
			return fmt.Errorf("put or merge error: %v", err)
		}
		written++
		bytes += int64(len(key) + len(val) + r.cfg.userTimestampSize)
		t.stats.finishedOps(1, opWrite)
		if lim != nil {
			lim.request(int64(len(key) + len(val)))
		}
		if rd.c.due(written) {
			if err := rd.write(r, db, int64(t.rand.Next()%uint64(r.cfg.num))); err != nil {
				return err
			}
			t.stats.finishedOps(1, opWrite)
		}
	}
	rd.report(r)
	t.stats.addBytes(bytes)
	return nil
}
