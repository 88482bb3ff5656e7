package dbbench

import "fmt"

// replaceKeyVersions is db_bench's max_counter: the versions a replaced key
// cycles through. Key d's version c is the key of id d*50 + c.
const replaceKeyVersions = 50

// benchRandomReplaceKeys is db_bench's RandomReplaceKeys, the MyRocks
// secondary-index pattern where every update deletes a key and inserts its
// next version. Setup, inside the timed run but not counted as ops: Put of version 0 of each of
// --numdistinct keys with generated values. Then --num ops (or --duration):
// key d = the next draw of a normal distribution with mean numdistinct/2 and
// sd --stddev (stdNormal, libstdc++'s, seeded alike in every thread),
// truncated and clamped to [0, numdistinct-1]; delete d's current version,
// then Put its next version (mod 50) with an empty value. Ops are of the
// default kind with no bytes; the message is "use single deletes: B,
// standard deviation: S" and a newline, as db_bench prints it.
//
// --use_single_deletes (the default) deletes with SingleDelete (each
// version is written once before it is deleted, SingleDelete's
// precondition; the native engine writes a Delete). db_bench also takes a
// snapshot after the setup and never releases it, which keeps tombstones
// alive in its compactions; the engine contract has no snapshots, so that
// effect on the LSM's shape is not reproduced here.
func benchRandomReplaceKeys(r *runner, t *thread) error {
	distinct := r.cfg.numDistinct
	if distinct < 1 {
		return fmt.Errorf("randomreplacekeys needs --numdistinct of at least 1, got %d", distinct)
	}
	gen := newValueGen(&r.shape, r.valueData)
	key := r.keys.NewBuf()
	versions := make([]uint32, distinct)
	db, _ := r.selectDB(t)
	for d := int64(0); d < distinct; d++ {
		r.keys.Fill(key, d*replaceKeyVersions)
		if err := db.Put(key, gen.Generate(), &r.wo); err != nil {
			return fmt.Errorf("Operation failed: %v", err)
		}
	}
	choose := newStdNormal(float64(distinct)/2, r.cfg.replaceKeysStddev)
	d := r.newDuration(int64(r.cfg.duration), r.cfg.num)
	for !d.done(1) {
		id := min(max(int64(choose.next()), 0), distinct-1)
		r.keys.Fill(key, id*replaceKeyVersions+int64(versions[id]))
		var err error
		if r.cfg.useSingleDeletes {
			err = db.SingleDelete(key, &r.wo)
		} else {
			err = db.Delete(key, &r.wo)
		}
		if err != nil {
			return fmt.Errorf("Operation failed: %v", err)
		}
		versions[id] = (versions[id] + 1) % replaceKeyVersions
		r.keys.Fill(key, id*replaceKeyVersions+int64(versions[id]))
		if err := db.Put(key, nil, &r.wo); err != nil {
			return fmt.Errorf("Operation failed: %v", err)
		}
		t.stats.finishedOps(1, opOthers)
	}
	single := 0
	if r.cfg.useSingleDeletes {
		single = 1
	}
	t.stats.addMessage(fmt.Sprintf("use single deletes: %d, standard deviation: %f\n", single, r.cfg.replaceKeysStddev))
	return nil
}
