package dbbench

import (
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// benchReadWhileScanning is db_bench's ReadWhileScanning: thread 0 scans
// (bgScan) while the others run readrandom.
func benchReadWhileScanning(r *runner, t *thread) error {
	if t.tid > 0 {
		return benchReadRandom(r, t)
	}
	return r.bgScan(t)
}

// bgScan is db_bench's BGScan: --reads operations (or --duration seconds)
// on one iterator, each a Next, or a SeekToFirst when the iterator ran off
// the end, so the scan wraps around the DB; each counts as a seek. Where
// db_bench re-seeks an iterator that failed, this ends the run with the
// error.
func (r *runner) bgScan(t *thread) error {
	it, err := r.db.NewIter(&engine.IterOptions{})
	if err != nil {
		return fmt.Errorf("iterator error: %v", err)
	}
	defer it.Close()
	r.out.Flush()
	r.errf("num reads to do %d\n", r.reads)
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	valid := false
	for !d.done(1) {
		if valid {
			valid = it.Next()
		} else {
			if err := it.Error(); err != nil {
				return fmt.Errorf("Iterator error: %v", err)
			}
			valid = it.First()
		}
		t.stats.finishedOps(1, opSeek)
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("Iterator error: %v", err)
	}
	return nil
}
