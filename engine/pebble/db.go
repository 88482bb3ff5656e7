package pebble

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/mergeop"
)

// errClosed is returned by every call on a closed DB (Pebble itself panics).
var errClosed = errors.New("pebble: database is closed")

// errEmptyKey refuses the empty key. Pebble v2.1.7 panics ("unreachable" in
// colblk.PrefixBytesBuilder.Finish) when it writes a columnar data block whose
// keys are all empty, e.g. flushing a memtable that holds only the key "";
// the panic is in a background goroutine and kills the process. db_bench
// never writes an empty key, so refusing it costs nothing.
var errEmptyKey = errors.New("pebble: the empty key is not supported " +
	"(Pebble v2's columnar tables cannot store a block holding only the empty key)")

// DB is an engine.DB backed by a *pebble.DB.
type DB struct {
	db     *pebble.DB
	logger *logger // also the warning writer, serialized

	disableWAL      bool // the DB-level WAL switch chosen at Open
	readOnly        bool // opened read-only: every write returns errReadOnly
	autoCompactions bool
	concurrency     int
	opened          time.Time
	mergeOp         mergeop.Operator // --merge_operator's; nil: Merge is refused
	// prefixSeekLen is --prefix_size under --prefix_same_as_start, else 0
	// (prefix.go).
	prefixSeekLen int

	closed atomic.Bool

	// fs is the file system Pebble writes through; fs.failed() is the first
	// write failure, returned by every later write and by Close.
	fs *failFS
	// wal is the layer over fs that decides what a WAL sync does
	// (walsync.go).
	wal *walSyncFS
	// health is Pebble's disk-health checker over fs, stopped at Close.
	health io.Closer

	// budget keeps the block cache at cache_size next to Pebble's memtable
	// reservations; nil when there is no cache.
	budget *cacheBudget

	// Counters for the "Cumulative writes" line of rocksdb.stats, which
	// Pebble does not keep. Three atomic adds on one cache line per write,
	// about 15 ns uncontended, against about 2 µs per Put measured by
	// BenchmarkPut (16-byte key, 100-byte value, WAL on, no sync): under 1%.
	// Under many writers the line bounces between cores, but Pebble's commit
	// pipeline already serializes every write on its own mutex. The padding
	// keeps that line away from the fields every read loads (db, closed).
	_                     [64]byte
	writes, keys, bytesIn atomic.Int64
	// syncs counts synced writes; they cost an fsync each, so the add is free.
	syncs atomic.Int64
	_     [64]byte

	// Write stalls reported by Pebble's event listener, for "Stalls(count)"
	// and "Cumulative stall".
	stalls stallCounters

	// warnedWAL and warnedTarget make the per-call warnings print once.
	warnedWAL, warnedTarget atomic.Bool

	// stats are the statistics of --statistics, nil without; rec is stats
	// when its level records anything, else nil (statistics.go).
	stats, rec *statistics.Statistics
	// metricsSource is the database's share of stats that Pebble's
	// metrics hold (setMetricCounts); nil without statistics.
	metricsSource *statistics.Source
	// maint is what engine.Maintainer's calls need (maintenance.go).
	maint maintenanceState

	// statsMu guards the snapshot the interval figures of rocksdb.stats are
	// measured from.
	statsMu   sync.Mutex
	lastStats statsSnapshot
}

var (
	_ engine.DB = (*DB)(nil)
)

// Pebble treats a nil *WriteOptions as Sync, so both are spelled out once.
var (
	syncWrites   = pebble.Sync
	noSyncWrites = pebble.NoSync
)

// writeOptions returns the Pebble options for wo without allocating, and
// whether wo asked for a synced WAL. With the WAL on every write is
// committed with pebble.Sync, so that it is acknowledged only once its WAL
// record is in the OS; the WAL file's Sync is an fsync only for writes that
// asked for one (walsync.go). A write for which durable is true is counted
// in d.wal, and the caller must call d.writeDone(durable) once Pebble
// returned.
func (d *DB) writeOptions(wo *engine.WriteOptions) (po *pebble.WriteOptions, durable bool) {
	if wo != nil && wo.DisableWAL != d.disableWAL && !d.warnedWAL.Load() && d.warnedWAL.CompareAndSwap(false, true) {
		d.logger.warnf("WARNING: engine pebble: the WAL is switched per database, not per write; "+
			"this database was opened with disable_wal=%v and keeps it\n", d.disableWAL)
	}
	// Pebble refuses a synced write when the WAL is off: with the WAL off
	// for the database the sync is dropped (a write that asked for both
	// never gets here, syncWithoutWAL).
	if d.disableWAL {
		return noSyncWrites, false
	}
	if wo != nil && wo.Sync {
		d.syncs.Add(1)
		d.wal.durableBegin()
		return syncWrites, true
	}
	return syncWrites, false
}

// syncWithoutWAL reports whether wo asks for a sync with the WAL off for
// the write, which RocksDB refuses (engine.ErrSyncWithoutWAL). A synced
// write that keeps the WAL on a database opened without one is RocksDB's
// to log and sync, and Pebble's WAL is off for the whole database: that
// one loses its sync, as writeOptions warns.
func (d *DB) syncWithoutWAL(wo *engine.WriteOptions) bool {
	return wo != nil && wo.Sync && wo.DisableWAL
}

// writeDone ends a write that writeOptions counted as durable.
func (d *DB) writeDone(durable bool) {
	if durable {
		d.wal.durableEnd()
	}
}

// writeKind is which single write writeOne makes.
type writeKind uint8

const (
	writeSet writeKind = iota
	writeDelete
	writeSingleDelete
	writeDeleteRange // key is the range's start, value its end
	writeMerge
)

// Put sets key to value.
func (d *DB) Put(key, value []byte, wo *engine.WriteOptions) error {
	return d.writeOne(writeSet, key, value, wo)
}

// Delete removes key.
func (d *DB) Delete(key []byte, wo *engine.WriteOptions) error {
	return d.writeOne(writeDelete, key, nil, wo)
}

// SingleDelete writes Pebble's single delete of key.
func (d *DB) SingleDelete(key []byte, wo *engine.WriteOptions) error {
	return d.writeOne(writeSingleDelete, key, nil, wo)
}

// DeleteRange deletes every key in [start, end) with one range tombstone.
func (d *DB) DeleteRange(start, end []byte, wo *engine.WriteOptions) error {
	return d.writeOne(writeDeleteRange, start, end, wo)
}

// Merge writes value as a merge operand of key (merger.go). Without a
// merge operator it fails as RocksDB's DB::Merge does.
func (d *DB) Merge(key, value []byte, wo *engine.WriteOptions) error {
	return d.writeOne(writeMerge, key, value, wo)
}

// writeOne makes one single write: the checks every write passes (closed,
// a write failure, the merge operator, the empty key, which a range's
// start may be), the durability bookkeeping and the counters.
func (d *DB) writeOne(kind writeKind, key, value []byte, wo *engine.WriteOptions) error {
	start := d.rec.Start()
	if d.closed.Load() {
		return errClosed
	}
	if err := d.writable(); err != nil {
		return err
	}
	if kind == writeMerge && d.mergeOp == nil {
		return engine.ErrNoMergeOperator
	}
	if len(key) == 0 && kind != writeDeleteRange {
		return errEmptyKey
	}
	if d.syncWithoutWAL(wo) {
		return engine.ErrSyncWithoutWAL
	}
	po, durable := d.writeOptions(wo)
	var err error
	switch kind {
	case writeSet:
		err = d.db.Set(key, value, po)
	case writeDelete:
		err = d.db.Delete(key, po)
	case writeSingleDelete:
		err = d.db.SingleDelete(key, po)
	case writeDeleteRange:
		err = d.db.DeleteRange(key, value, po)
	case writeMerge:
		err = d.db.Merge(key, value, po)
	}
	d.writeDone(durable)
	if err = d.writeResult(err); err != nil {
		return err
	}
	d.countWrite(1, int64(len(key)+len(value)), durable, start)
	return nil
}

// GetMergeOperands is refused: Pebble hands out merge operands only
// merged, through the merger, and keeps no call that lists them.
func (d *DB) GetMergeOperands(key []byte, fn func(operand []byte)) (bool, error) {
	return false, errNoGetMergeOperands
}

// errNoGetMergeOperands is the pebble engine's refusal of GetMergeOperands.
var errNoGetMergeOperands = errors.New("Not implemented: the pebble engine has no GetMergeOperands (Pebble reads merge operands only merged)")

// writable returns why the database takes no writes, or nil: opened
// read-only, or a write failure happened (failfs.go).
func (d *DB) writable() error {
	if d.readOnly {
		return errReadOnly
	}
	return d.fs.failed()
}

// writeResult is the outcome of a write that Pebble returned err for: the
// write failure when one happened meanwhile, since the write's WAL record
// may have been dropped with it (failfs.go), else err.
func (d *DB) writeResult(err error) error {
	if ferr := d.fs.failed(); ferr != nil {
		return ferr
	}
	return err
}

func (d *DB) countWrite(keys, bytes int64, durable bool, start time.Time) {
	d.writes.Add(1)
	d.keys.Add(keys)
	d.bytesIn.Add(bytes)
	if d.rec != nil {
		d.countWriteStats(keys, bytes, durable, start)
	}
}

// NewBatch returns an empty batch for Apply.
func (d *DB) NewBatch() engine.Batch {
	return &batch{b: d.db.NewBatch()}
}

// Apply commits b atomically. b must come from this DB's NewBatch.
func (d *DB) Apply(b engine.Batch, wo *engine.WriteOptions) error {
	start := d.rec.Start()
	if d.closed.Load() {
		return errClosed
	}
	pb, ok := b.(*batch)
	if !ok {
		return fmt.Errorf("pebble: Apply of a %T, not a batch from this engine", b)
	}
	if pb.b == nil {
		return errors.New("pebble: Apply of a closed batch")
	}
	if err := d.writable(); err != nil {
		return err
	}
	if pb.err != nil {
		return pb.err
	}
	if pb.merges && d.mergeOp == nil {
		return engine.ErrBatchMergeNoOperator
	}
	n := pb.b.Count()
	if n == 0 {
		return nil
	}
	if d.syncWithoutWAL(wo) {
		return engine.ErrSyncWithoutWAL
	}
	po, durable := d.writeOptions(wo)
	err := d.db.Apply(pb.b, po)
	d.writeDone(durable)
	if err = d.writeResult(err); err != nil {
		return err
	}
	d.countWrite(int64(n), int64(pb.b.Len()), durable, start)
	return nil
}

// Get calls fn with key's value, which aliases Pebble's memtable or block
// cache memory and is valid only during the call.
func (d *DB) Get(key []byte, fn func(value []byte)) (bool, error) {
	if d.rec != nil {
		return d.countedGet(key, fn)
	}
	return d.get(key, fn)
}

// get is Get without statistics.
func (d *DB) get(key []byte, fn func(value []byte)) (bool, error) {
	if d.closed.Load() {
		return false, errClosed
	}
	if err := d.fs.failed(); err != nil {
		return false, err
	}
	value, closer, err := d.db.Get(key)
	if err != nil {
		if err == pebble.ErrNotFound {
			return false, nil
		}
		return false, err
	}
	fn(value)
	return true, closer.Close()
}

// NewIter returns an iterator over [o.LowerBound, o.UpperBound).
func (d *DB) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	if d.closed.Load() {
		return nil, errClosed
	}
	if err := d.fs.failed(); err != nil {
		return nil, err
	}
	var it engine.Iterator
	if o != nil && o.Tailing {
		view := o.ViewOptions()
		it = engine.NewTailingIter(func() (engine.Iterator, error) { return newIterator(d.db, view, d.prefixSeekLen) })
	} else {
		pi, err := newIterator(d.db, o, d.prefixSeekLen)
		if err != nil {
			return nil, err
		}
		it = pi
	}
	if d.rec != nil {
		return engine.NewCountedIter(d.rec, it), nil
	}
	return it, nil
}

// ResetStats restarts the interval figures of rocksdb.stats. Pebble's own
// metrics are cumulative and cannot be cleared, so nothing else changes.
func (d *DB) ResetStats() error {
	if d.closed.Load() {
		return errClosed
	}
	d.statsMu.Lock()
	d.lastStats = d.snapshot(d.db.Metrics())
	d.statsMu.Unlock()
	return nil
}

// Close closes the database. Later calls return an error. With the WAL off,
// the memtables are flushed first: RocksDB does the same at close when
// writes skipped the WAL (avoid_flush_during_shutdown is false by default),
// so a db_bench run with --disable_wal followed by --use_existing_db finds
// its data. After a write failure Close still closes Pebble (nothing it
// writes then reaches the disk, see failfs.go) and returns the failure.
func (d *DB) Close() error {
	if !d.closed.CompareAndSwap(false, true) {
		return errClosed
	}
	if d.budget != nil {
		d.budget.close()
	}
	var flushErr error
	if d.disableWAL && !d.readOnly {
		flushErr = d.db.Flush()
	}
	// The statistics outlive the database when shared (the next open of
	// a fresh-database benchmark counts on in them).
	d.stats.CloseSource(d.metricsSource)
	closeErr := d.db.Close()
	d.health.Close()
	if err := d.fs.failed(); err != nil {
		return err
	}
	if closeErr != nil {
		return closeErr
	}
	return flushErr
}
