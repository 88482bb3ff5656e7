package lsm

// A RunReader is one goroutine's run of Gets at the latest sequence. A
// lone Get takes a reference on the published read state and drops it:
// two read-modify-writes of the state's count, a cache line every reading
// core shares, so at 2 threads they were 3% of readrandom's CPU. A
// RunReader keeps the state its last Get used and takes a new one only
// when the DB has published another, which it learns from one atomic load
// of the published pointer (a line written only at a memtable switch or a
// version change). Each Get therefore reads exactly the state a lone Get
// would have read at its start. It also keeps a lookup's working state
// (getter) of its own rather than taking one from a pool per Get, so a
// Get's fn must not call Get on the same RunReader. End lets go of the
// state; a RunReader holding one pins its memtables and tables, so a
// caller ends every run.
//
// A RunReader is for one goroutine at a time and may be reused after End.
type RunReader struct {
	db *DB
	rs *readState // nil between runs
	g  *getter    // its own, where a lone Get takes one from a pool
}

// NewRunReader returns a RunReader of the default column family.
func (db *DB) NewRunReader() *RunReader { return &RunReader{db: db, g: newGetter()} }

// Get is DB.Get.
func (r *RunReader) Get(key []byte, fn func(value []byte)) (bool, error) {
	reads := &r.db.def.reads
	if r.rs == nil || reads.p.Load() != r.rs {
		r.End()
		if r.rs = reads.get(); r.rs == nil {
			return false, ErrClosed
		}
	}
	return r.db.getIn(r.rs, r.g, key, latestSeq, fn)
}

// End drops the read state held, if any.
func (r *RunReader) End() {
	if r.rs != nil {
		r.rs.unrefReading(&r.db.purge)
		r.rs = nil
	}
}
