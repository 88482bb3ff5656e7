package dbbench

import (
	"errors"

	"github.com/godbbench/godbbench/engine"
)

// writeTarget is one database as doWrite writes into it: its batch, its
// own key generator (db_bench's key_gens[id]) and its column families'
// routing (nil with one family).
type writeTarget struct {
	db    engine.DB
	batch engine.Batch
	keys  writeKeys
	fams  *familyWrites
}

// writeTargets are doWrite's targets, one per open database in order.
type writeTargets []writeTarget

// newWriteTargets returns a target for each open database, each with a
// copy of keys (sharing its permutation and random numbers) and the
// routing of its families for maxOps operations.
func (r *runner) newWriteTargets(keys writeKeys, maxOps int64) (writeTargets, error) {
	batches := r.batchPerDB()
	ts := make(writeTargets, len(batches))
	for i := range ts {
		db, fams := r.slot(i)
		ts[i] = writeTarget{db: db, batch: batches[i], keys: keys}
		var err error
		if ts[i].fams, err = r.familyWrites(fams, batches[i], maxOps); err != nil {
			closeBatches(batches)
			return nil, err
		}
	}
	return ts, nil
}

// enter creates the families of the stage d has reached in every
// database, as db_bench's DoWrite calls CreateNewCf on each.
func (ts writeTargets) enter(d *duration) error {
	for i := range ts {
		if err := ts[i].fams.enter(d); err != nil {
			return err
		}
	}
	return nil
}

func (ts writeTargets) close() {
	for i := range ts {
		ts[i].batch.Close()
	}
}

// batchPerDB returns a new batch of each open database, in order: an
// engine's batch is applied to the database that made it.
func (r *runner) batchPerDB() []engine.Batch {
	bs := make([]engine.Batch, r.dbCount())
	for i := range bs {
		db, _ := r.slot(i)
		bs[i] = db.NewBatch()
	}
	return bs
}

func closeBatches(bs []engine.Batch) {
	for _, b := range bs {
		b.Close()
	}
}

// errFilledAllDBs is db_bench's words for a sequential fill that runs
// past the last of its databases.
var errFilledAllDBs = errors.New("Logic error. Filled all databases")

// errUniqueShapedSeveralDBs refuses filluniquerandom's overwrite and
// disposable-entry shapes with several databases, which keep their
// windows and queues per database in db_bench.
var errUniqueShapedSeveralDBs = errors.New("Not implemented: --num_multi_db > 1 with --overwrite_probability or --disposable_entries_batch_size")
