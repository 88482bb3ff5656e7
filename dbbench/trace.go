package dbbench

import (
	"errors"
	"os"
	"sync"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/tracefmt"
	"github.com/godbbench/godbbench/txn"
)

// Tracing (--trace_file) records every benchmark's reads and writes in
// RocksDB's query trace format (internal/tracefmt), as C++ db_bench's
// DB::StartTrace does, on every engine. An engine that traces itself
// (engine.Tracer: RocksDB's own tracer, on the rocksdb engine) is asked
// to; for the others the driver wraps the DB of the benchmark in a
// tracedDB for the benchmark's run and unwraps it after. Either way a run
// without --trace_file calls the engine directly and pays nothing.
// What is recorded, as RocksDB records it: a write per Put, Delete,
// SingleDelete, DeleteRange, Merge, batch and transaction commit (a
// WriteBatch of its entries, sequence number 0), a get per Get (a
// transaction's reads included), a multiget per batched lookup
// (multireadrandom's MultiGet, whatever the engine does with it), a Seek
// or SeekForPrev per iterator SeekGE or SeekLE with the iterator's
// bounds. Not recorded, as in RocksDB: iterator steps, First and Last,
// GetMergeOperands.

// traceRecorder writes one benchmark's trace; its methods are safe for
// concurrent use and allocate nothing.
type traceRecorder struct {
	mu   sync.Mutex
	file *os.File
	w    *tracefmt.Writer
	one  tracefmt.Batch // a single Put, Delete or Merge as a batch of one
	err  error          // the first write error, reported when the trace ends
}

// startTrace creates (truncating) path and writes the trace header.
func startTrace(path string) (*traceRecorder, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, errors.New(ioErrorText("While open a file for appending", path, err))
	}
	w, err := tracefmt.NewWriter(f, nowMicros())
	if err != nil {
		f.Close()
		return nil, err
	}
	t := &traceRecorder{file: f, w: w}
	t.one.Reset()
	return t, nil
}

// end writes the footer and closes the file.
func (t *traceRecorder) end() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	err := t.w.Close(nowMicros())
	if t.err != nil {
		err = t.err
	}
	if cerr := t.file.Close(); err == nil {
		err = cerr
	}
	return err
}

func (t *traceRecorder) keep(err error) {
	if err != nil && t.err == nil {
		t.err = err
	}
}

// single records a write of one entry of kind op (for EntryDeleteRange,
// key and value are the range's start and end).
func (t *traceRecorder) single(op tracefmt.EntryKind, key, value []byte) {
	t.mu.Lock()
	t.one.Reset()
	switch op {
	case tracefmt.EntryPut:
		t.one.Put(key, value)
	case tracefmt.EntryMerge:
		t.one.Merge(key, value)
	case tracefmt.EntrySingleDelete:
		t.one.SingleDelete(key)
	case tracefmt.EntryDeleteRange:
		t.one.DeleteRange(key, value)
	default:
		t.one.Delete(key)
	}
	t.keep(t.w.Write(nowMicros(), t.one.Bytes()))
	t.mu.Unlock()
}

func (t *traceRecorder) batch(rep []byte) {
	t.mu.Lock()
	t.keep(t.w.Write(nowMicros(), rep))
	t.mu.Unlock()
}

func (t *traceRecorder) get(key []byte) {
	t.mu.Lock()
	t.keep(t.w.Get(nowMicros(), 0, key))
	t.mu.Unlock()
}

func (t *traceRecorder) multiGet(keys [][]byte) {
	t.mu.Lock()
	t.keep(t.w.MultiGet(nowMicros(), 0, keys))
	t.mu.Unlock()
}

func (t *traceRecorder) seek(typ tracefmt.Type, key, lower, upper []byte) {
	t.mu.Lock()
	t.keep(t.w.Seek(nowMicros(), typ, 0, key, lower, upper))
	t.mu.Unlock()
}

// tracedDB is a DB whose reads and writes are recorded before they run.
type tracedDB struct {
	engine.DB
	rec *traceRecorder
	// lookups recycles the engine's Runs that MultiGet looks up with, one
	// per concurrent call, as a Runs serves one goroutine at a time.
	lookups freeList[engine.Runs]
}

// untraced is the engine's own DB behind db.
func untraced(db engine.DB) engine.DB {
	if t, ok := db.(*tracedDB); ok {
		return t.DB
	}
	return db
}

func (d *tracedDB) Put(key, value []byte, wo *engine.WriteOptions) error {
	d.rec.single(tracefmt.EntryPut, key, value)
	return d.DB.Put(key, value, wo)
}

func (d *tracedDB) Delete(key []byte, wo *engine.WriteOptions) error {
	d.rec.single(tracefmt.EntryDelete, key, nil)
	return d.DB.Delete(key, wo)
}

func (d *tracedDB) Merge(key, value []byte, wo *engine.WriteOptions) error {
	d.rec.single(tracefmt.EntryMerge, key, value)
	return d.DB.Merge(key, value, wo)
}

func (d *tracedDB) SingleDelete(key []byte, wo *engine.WriteOptions) error {
	d.rec.single(tracefmt.EntrySingleDelete, key, nil)
	return d.DB.SingleDelete(key, wo)
}

func (d *tracedDB) DeleteRange(start, end []byte, wo *engine.WriteOptions) error {
	d.rec.single(tracefmt.EntryDeleteRange, start, end)
	return d.DB.DeleteRange(start, end, wo)
}

func (d *tracedDB) NewBatch() engine.Batch {
	b := &tracedBatch{Batch: d.DB.NewBatch()}
	b.rep.Reset()
	return b
}

// Apply records the batch's entries as one write. A batch made before the
// trace started is applied unrecorded.
func (d *tracedDB) Apply(b engine.Batch, wo *engine.WriteOptions) error {
	if tb, ok := b.(*tracedBatch); ok {
		d.rec.batch(tb.rep.Bytes())
		return d.DB.Apply(tb.Batch, wo)
	}
	return d.DB.Apply(b, wo)
}

func (d *tracedDB) Get(key []byte, fn func(value []byte)) (bool, error) {
	d.rec.get(key)
	return d.DB.Get(key, fn)
}

// MultiGet records the batch as one MultiGet of all its keys, as
// RocksDB's DBImpl::MultiGet does, and looks the keys up through the
// engine's own MultiGet, or a Get per key where it has none, unrecorded.
func (d *tracedDB) MultiGet(keys [][]byte, found []bool, fn func(i int, value []byte)) error {
	d.rec.multiGet(keys)
	runs := d.lookups.get()
	if runs == nil {
		runs = engine.NewRuns(d.DB)
	}
	err := runs.MultiGet(keys, found, fn)
	d.lookups.put(runs)
	return err
}

func (d *tracedDB) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	it, err := d.DB.NewIter(o)
	if err != nil {
		return nil, err
	}
	t := tracedIters.get()
	if t == nil {
		t = new(tracedIter)
	}
	*t = tracedIter{Iterator: it, rec: d.rec}
	if o != nil {
		t.lower, t.upper = o.LowerBound, o.UpperBound
	}
	return t, nil
}

// tracedIters recycles closed tracedIters, so that a benchmark making an
// iterator per seek (seekrandom) allocates none for the wrapper.
var tracedIters freeList[tracedIter]

// tracedBatch keeps the WriteBatch representation of the engine batch's
// entries beside it.
type tracedBatch struct {
	engine.Batch
	rep tracefmt.Batch
}

func (b *tracedBatch) Put(key, value []byte) {
	b.rep.Put(key, value)
	b.Batch.Put(key, value)
}

func (b *tracedBatch) Delete(key []byte) {
	b.rep.Delete(key)
	b.Batch.Delete(key)
}

func (b *tracedBatch) Merge(key, value []byte) {
	b.rep.Merge(key, value)
	b.Batch.Merge(key, value)
}

func (b *tracedBatch) DeleteRange(start, end []byte) {
	b.rep.DeleteRange(start, end)
	b.Batch.DeleteRange(start, end)
}

func (b *tracedBatch) Reset() {
	b.rep.Reset()
	b.Batch.Reset()
}

// tracedIter records its seeks with the bounds it was made with.
type tracedIter struct {
	engine.Iterator
	rec          *traceRecorder
	lower, upper []byte
}

// Close closes the engine's iterator and recycles the wrapper, which
// must not be used afterwards.
func (it *tracedIter) Close() error {
	err := it.Iterator.Close()
	*it = tracedIter{}
	tracedIters.put(it)
	return err
}

func (it *tracedIter) SeekGE(key []byte) bool {
	it.rec.seek(tracefmt.TypeSeek, key, it.lower, it.upper)
	return it.Iterator.SeekGE(key)
}

func (it *tracedIter) SeekLE(key []byte) bool {
	it.rec.seek(tracefmt.TypeSeekForPrev, key, it.lower, it.upper)
	return it.Iterator.SeekLE(key)
}

// beginTrace starts recording the benchmark name into --trace_file, as
// db_bench does for every benchmark but replay, and wraps r.db; endTrace
// undoes it. Each benchmark rewrites the file, so it ends holding the
// last benchmark's trace.
func (r *runner) beginTrace(name string) error {
	if r.cfg.traceFile == "" || name == "replay" {
		return nil
	}
	if r.multi != nil {
		// db_bench starts the trace on db_.db, which it leaves unset
		// with several databases (and crashes).
		r.out.Flush()
		r.errf("Not implemented: --trace_file records one database; --num_multi_db=%d opens several\n", r.cfg.numMultiDB)
		return errExit{"trace_file with several databases"}
	}
	var err error
	if tr, ok := r.db.(engine.Tracer); ok {
		if err = tr.StartTrace(r.cfg.traceFile); err == nil {
			r.engineTrace = tr
		}
	} else {
		var rec *traceRecorder
		if rec, err = startTrace(r.cfg.traceFile); err == nil {
			r.db = &tracedDB{DB: r.db, rec: rec}
			r.traceTransactions()
		}
	}
	if err != nil {
		r.out.Flush()
		r.errf("Encountered an error starting a trace, %s\n", err)
		return errExit{"trace start"}
	}
	r.outf("Tracing the workload to: [%s]\n", r.cfg.traceFile)
	return nil
}

func (r *runner) endTrace() {
	var err error
	if r.engineTrace != nil {
		err = r.engineTrace.EndTrace()
		r.engineTrace = nil
	} else if t, ok := r.db.(*tracedDB); ok {
		r.db = t.DB
		r.untraceTransactions()
		err = t.rec.end()
	} else {
		return
	}
	if err != nil {
		r.out.Flush()
		r.errf("Encountered an error ending the trace, %s\n", err)
	}
}

// traceTransactions points package txn's transactions, when the DB runs
// them, at the traced DB, so that their reads and commits are recorded;
// untraceTransactions points them back. The two share locks and commit
// stamps.
func (r *runner) traceTransactions() {
	if tdb, ok := r.transactionDB.(*txn.DB); ok && r.transactionOf == untraced(r.db) {
		r.transactionDB = tdb.Over(r.db)
	}
}

func (r *runner) untraceTransactions() {
	if tdb, ok := r.transactionDB.(*txn.DB); ok {
		r.transactionDB = tdb.Over(r.db)
	}
}
