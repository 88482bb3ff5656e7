package dbbench

import (
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// familyWrites is doWrite's side of column families: the batch whose
// entries name their family, and the stages at which the hot families
// move on (db_bench's Duration::GetStage and CreateNewCf).
type familyWrites struct {
	fams        *columnFamilies
	batch       engine.ColumnFamilyBatch
	opsPerStage int64
	maxOps      int64
	stage       int64
}

// familyWrites returns doWrite's routing to the families fams of one
// database for maxOps operations into batch, nil when the run has one
// family.
func (r *runner) familyWrites(fams *columnFamilies, batch engine.Batch, maxOps int64) (*familyWrites, error) {
	if fams == nil {
		return nil, nil
	}
	b, ok := batch.(engine.ColumnFamilyBatch)
	if !ok {
		return nil, fmt.Errorf("Not implemented: the %s engine's batches have no column families", r.opener.Info().Name)
	}
	return &familyWrites{fams: fams, batch: b, opsPerStage: fams.opsPerStage(maxOps), maxOps: maxOps}, nil
}

// enter creates the families of the stage d has reached, after its
// latest done call.
func (w *familyWrites) enter(d *duration) error {
	if w == nil {
		return nil
	}
	stage := min(d.ops, w.maxOps-1) / w.opsPerStage
	if stage == w.stage {
		return nil
	}
	w.stage = stage
	return w.fams.enterStage(stage)
}

// put adds key and value to the batch for the family of keyNum.
func (w *familyWrites) put(keyNum int64, key, value []byte) {
	w.batch.PutCF(w.fams.pick(keyNum), key, value)
}

// readRandomEach is ReadRandom with column families or several
// databases: the databases and keys drawn as benchReadRandom draws them,
// each key looked up with a single Get in its database, in the family of
// its key's number, as db_bench's ReadRandom does.
func (r *runner) readRandomEach(t *thread) error {
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	key := r.keys.NewBuf()
	sink := &getSink{key: key, fold: r.foldReads}
	take := sink.take
	var picker readKeyPicker
	lim := t.shared.readLimiter
	entryOverhead := int64(r.keySize + r.cfg.userTimestampSize)
	var read, found, bytes int64
	for !d.done(1) {
		id, k := picker.next(r, t)
		db, fams := r.slot(id)
		if fams != nil {
			db = fams.family(k)
		}
		r.keys.Fill(key, k)
		ok, err := db.Get(key, take)
		if err != nil {
			return fmt.Errorf("Get returned an error: %v", err)
		}
		read++
		if ok {
			found++
			bytes += entryOverhead + int64(sink.valueLen)
		}
		if lim != nil && read%256 == 255 {
			lim.request(256)
		}
		t.stats.finishedOps(1, opRead)
	}
	t.stats.endReadRandom(read, found, bytes, sink.checksum)
	return nil
}
