package native

import (
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/lsm"
)

// runReader is engine.RunReader over lsm.RunReader: a run's Gets share the
// read state while it stays current, and --statistics counts them as it
// counts single Gets.
type runReader struct {
	db *DB
	r  *lsm.RunReader
}

// NewRunReader implements engine.RunReaders.
func (db *DB) NewRunReader() engine.RunReader {
	return &runReader{db: db, r: db.d.NewRunReader()}
}

func (rr *runReader) Get(key []byte, fn func(value []byte)) (bool, error) {
	if rr.db.rec != nil {
		return engine.CountedGet(rr.db.rec, rr.r, key, fn)
	}
	return rr.r.Get(key, fn)
}

func (rr *runReader) End() { rr.r.End() }
