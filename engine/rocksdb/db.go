//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"
#include "flagfeatures.h"
#include "shim.h"
#include "txnbridge.h"

// gdb_flush_cf flushes the memtables of column family cf and waits.
static char* gdb_flush_cf(rocksdb_t* db, rocksdb_column_family_handle_t* cf) {
	char* err = NULL;
	rocksdb_flushoptions_t* fo = rocksdb_flushoptions_create();
	rocksdb_flushoptions_set_wait(fo, 1);
	rocksdb_flush_cf(db, fo, cf, &err);
	rocksdb_flushoptions_destroy(fo);
	return err;
}

// gdb_open opens the default column family, read-only when read_only is set.
static char* gdb_open(const rocksdb_options_t* opts, const char* path, int read_only,
                      rocksdb_t** db, rocksdb_column_family_handle_t** cf) {
	char* err = NULL;
	const char* names[1] = {"default"};
	const rocksdb_options_t* cf_opts[1] = {opts};
	if (read_only) {
		*db = rocksdb_open_for_read_only_column_families(opts, path, 1, names, cf_opts, cf, 0, &err);
	} else {
		*db = rocksdb_open_column_families(opts, path, 1, names, cf_opts, cf, &err);
	}
	return err;
}

static char* gdb_destroy_db(const rocksdb_options_t* opts, const char* path) {
	char* err = NULL;
	rocksdb_destroy_db(opts, path, &err);
	return err;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
	"unsafe"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/clock"
	"github.com/godbbench/godbbench/options"
)

// DB is an open RocksDB database. It implements engine.DB, engine.Runner
// and engine.ThreadContext.
type DB struct {
	db  *C.rocksdb_t
	cf  *C.rocksdb_column_family_handle_t // the default column family
	cfg *config
	ro  *C.rocksdb_readoptions_t
	// wo holds one WriteOptions per engine.WriteOptions value, indexed by
	// writeOptionsIndex, so a write never creates one (about 60 ns and a C
	// allocation each).
	wo [4]*C.rocksdb_writeoptions_t

	verifyChecksums bool
	read            options.ReadOptions // db_bench's read options, for every ReadOptions made
	defaultWO       int                 // index into wo used for a nil *engine.WriteOptions
	closeOnce       sync.Once
	mget            sync.Pool // *multiGetScratch
	// txnDB is the transaction side of a database opened as a
	// TransactionDB or OptimisticTransactionDB (txn.go), else nil.
	txnDB *C.gdb_txndb_t
	// blockCacheTracing: a --block_cache_trace_file trace runs until Close.
	blockCacheTracing bool
	// multiGetBatched: MultiGet uses the batched interface
	// (--multiread_batched).
	multiGetBatched bool
	// secondary runs a secondary instance's catch-ups (secondary.go);
	// nil for a primary.
	secondary *secondaryUpdater
	// families are the column families of --num_column_families > 1
	// (columnfamilies.go); nil with the default family alone.
	families *engine.FamilySlots[family]
}

var (
	_ engine.DB            = (*DB)(nil)
	_ engine.Runner        = (*DB)(nil)
	_ engine.ThreadContext = (*DB)(nil)
)

// errClosed is returned by operations on a closed DB.
var errClosed = errors.New("rocksdb: database is closed")

// writeOptions returns the WriteOptions for wo; nil means the database-wide
// --sync/--disable_wal settings from Options.
func (d *DB) writeOptions(wo *engine.WriteOptions) *C.rocksdb_writeoptions_t {
	if wo == nil {
		return d.wo[d.defaultWO]
	}
	return d.wo[writeOptionsIndex(wo)]
}

func writeOptionsIndex(wo *engine.WriteOptions) int {
	i := 0
	if wo.Sync {
		i |= 1
	}
	if wo.DisableWAL {
		i |= 2
	}
	return i
}

func openDB(dir string, cfg *config, o *options.Options, warn io.Writer) (*DB, error) {
	path := cString(dir)
	defer cFree(unsafe.Pointer(path))
	d := &DB{
		cfg:             cfg,
		verifyChecksums: o.VerifyChecksum,
		read:            o.Read,
		defaultWO:       writeOptionsIndex(&engine.WriteOptions{Sync: o.Sync, DisableWAL: o.DisableWAL}),
		multiGetBatched: o.Read.MultireadBatched,
	}
	// RocksDB's read-only open replays the WAL into memory, writes nothing,
	// and fails writes with NotSupported.
	if o.UseSecondaryDB && (o.TransactionDB || o.OptimisticTransactionDB) {
		return nil, fmt.Errorf("Cannot use use_secondary_db flag with transaction_db")
	}
	if o.NumColumnFamilies > 1 {
		if err := d.openFamilies(path, o); err != nil {
			return nil, err
		}
	} else if wantsTransactions(o) {
		if err := d.openTransactionDB(path, o); err != nil {
			return nil, err
		}
	} else if o.UseSecondaryDB {
		if err := d.openSecondary(path, o, warn); err != nil {
			return nil, err
		}
	} else if err := cError(C.gdb_open(cfg.opts, path, C.int(boolByte(o.ReadOnly)), &d.db, &d.cf)); err != nil {
		return nil, err
	}
	d.ro = d.newReadOptions()
	for i := range d.wo {
		w := C.rocksdb_writeoptions_create()
		C.rocksdb_writeoptions_set_sync(w, boolByte(i&1 != 0))
		C.rocksdb_writeoptions_disable_WAL(w, C.int(i>>1))
		C.gdb_writeoptions_set_io_user(w, boolByte(o.Read.RateLimitAutoWALFlush))
		// db_bench builds its write batches with per-key checksums of
		// --write_batch_protection_bytes_per_key bytes; RocksDB adds the
		// same checksums to each batch written with this write option.
		C.gdb_writeoptions_set_protection(w, C.size_t(o.WriteBatchProtectionBytesPerKey))
		d.wo[i] = w
	}
	return d, nil
}

func (d *DB) newReadOptions() *C.rocksdb_readoptions_t {
	ro := C.rocksdb_readoptions_create()
	C.rocksdb_readoptions_set_verify_checksums(ro, boolByte(d.verifyChecksums))
	// db_bench's read options from flags (options.ReadOptions).
	r := &d.read
	C.rocksdb_readoptions_set_total_order_seek(ro, boolByte(r.TotalOrderSeek))
	C.rocksdb_readoptions_set_prefix_same_as_start(ro, boolByte(r.PrefixSameAsStart))
	C.rocksdb_readoptions_set_readahead_size(ro, C.size_t(max(r.ReadaheadSize, 0)))
	C.gdb_readoptions_set_db_bench(ro, boolByte(r.AdaptiveReadahead), boolByte(r.AsyncIO),
		boolByte(r.OptimizeMultigetForIO), boolByte(r.AutoPrefixMode), boolByte(r.RateLimitUserOps))
	return ro
}

// Put implements engine.DB: one cgo call writing through the calling OS
// thread's reused WriteBatch (see gdb_put_one in bridge.h). Against a
// sync.Pool of C API batches (two pool operations and three C API calls in
// the crossing) BenchmarkPut went from 1,628 to 1,490 ns/op at the minimum
// of 5 runs (medians 1,644 and 1,504).
func (d *DB) Put(key, value []byte, wo *engine.WriteOptions) error {
	return d.put(d.cf, key, value, wo)
}

// Delete implements engine.DB like Put.
func (d *DB) Delete(key []byte, wo *engine.WriteOptions) error {
	return d.delete(d.cf, key, wo)
}

// SingleDelete implements engine.DB with DB::SingleDelete.
func (d *DB) SingleDelete(key []byte, wo *engine.WriteOptions) error {
	return d.singleDelete(d.cf, key, wo)
}

// Get implements engine.DB in one cgo call, copying the value into a
// pooled Go buffer that fn reads (get says why).
func (d *DB) Get(key []byte, fn func(value []byte)) (bool, error) {
	return d.get(d.cf, key, fn)
}

// GetRun implements engine.Runner: the lookups of a whole run of keys in
// one cgo call, timed when doneNs is not nil (a clock.Stopwatch lap after
// each lookup, as db_bench reads its clock). db_bench's readrandom only counts
// what it finds (unless --report_json asks for a checksum of the values),
// so the driver hands it runs of up to 16,384 keys (dbbench/runs.go says
// why long ones: a locked goroutine's trips through the Go scheduler cost
// more than the crossings). RocksDB readrandom, 500,000 reads on a 1M-key
// DB, 8 rounds against C++ db_bench (medians of the per-round ratios):
// runs of 64 0.954, runs of 16,384 1.020; one Get a crossing was
// 0.929-0.938 in earlier rounds.
func (d *DB) GetRun(keys []byte, keyLen int, sizes []int32, doneNs []int64) error {
	if doneNs != nil && len(doneNs) != len(sizes) {
		return fmt.Errorf("rocksdb: GetRun: %d times for %d keys", len(doneNs), len(sizes))
	}
	return d.getSizes(keys, keyLen, sizes, doneNs)
}

func (d *DB) getSizes(keys []byte, keyLen int, sizes []int32, doneNs []int64) error {
	if d.db == nil {
		return errClosed
	}
	n := len(sizes)
	if keyLen <= 0 || len(keys) != n*keyLen {
		return fmt.Errorf("rocksdb: GetRun: %d bytes of keys for %d keys of %d bytes", len(keys), n, keyLen)
	}
	if n == 0 {
		return nil
	}
	rc := startRunClock(doneNs)
	err := cError(C.gdb_get_sizes(d.db, d.ro, C.size_t(n), bytesPtr(keys), C.size_t(keyLen),
		(*C.int32_t)(unsafe.Pointer(&sizes[0])), timesPtr(doneNs), rc.ticking()))
	if err == nil {
		rc.finish(doneNs, n)
	}
	return err
}

// runClock times one run of a C loop (lapclock.h) for a timed run: the C
// loop reads the clock its ticking flag names and writes laps, which
// finish converts to nanoseconds. Untimed (nil doneNs), it reads nothing.
type runClock struct {
	sw clock.Stopwatch
}

// startRunClock starts the clock of a run timed into doneNs.
func startRunClock(doneNs []int64) runClock {
	if doneNs == nil {
		return runClock{}
	}
	return runClock{sw: clock.StartStopwatch()}
}

// ticking is the C loop's flag: read the time stamp counter (1) or
// CLOCK_MONOTONIC (0).
func (rc *runClock) ticking() C.int { return boolInt(rc.sw.Ticking()) }

// finish converts the first n laps of doneNs, those the C loop wrote.
func (rc *runClock) finish(doneNs []int64, n int) {
	if doneNs != nil {
		rc.sw.ToNanos(doneNs[:n])
	}
}

// timesPtr is the C view of a run's completion times, NULL for none.
func timesPtr(doneNs []int64) *C.int64_t {
	if len(doneNs) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&doneNs[0]))
}

// PutRun implements engine.Runner: a run of single-entry writes in one cgo
// call, for db_bench's fills with batch_size 1 (see GetRun for why), timed
// when doneNs is not nil.
func (d *DB) PutRun(keys []byte, keyLen int, values []byte, ends []int32, wo *engine.WriteOptions, doneNs []int64) (int, error) {
	if doneNs != nil && len(doneNs) != len(ends) {
		return 0, fmt.Errorf("rocksdb: PutRun: %d times for %d entries", len(doneNs), len(ends))
	}
	return d.putRun(keys, keyLen, values, ends, wo, doneNs)
}

// ScanRun implements engine.Runner: n Next calls on it, one of this DB's
// iterators, and the key and value lengths in one cgo call (iter.go).
func (d *DB) ScanRun(it engine.Iterator, n int, stepFirst bool, doneNs []int64) (int, int64, bool, error) {
	own, ok := it.(*iterator)
	if !ok {
		return 0, 0, false, fmt.Errorf("rocksdb: ScanRun on a %T, not a rocksdb iterator", it)
	}
	if doneNs != nil && len(doneNs) < n {
		return 0, 0, false, fmt.Errorf("rocksdb: ScanRun: %d times for %d entries", len(doneNs), n)
	}
	return own.scanSizes(n, stepFirst, doneNs)
}

func (d *DB) putRun(keys []byte, keyLen int, values []byte, ends []int32, wo *engine.WriteOptions, doneNs []int64) (int, error) {
	if d.db == nil {
		return 0, errClosed
	}
	n := len(ends)
	if keyLen <= 0 || len(keys) != n*keyLen || (n > 0 && int(ends[n-1]) != len(values)) {
		return 0, fmt.Errorf("rocksdb: PutRun: %d bytes of keys, %d of values for %d entries of %d-byte keys", len(keys), len(values), n, keyLen)
	}
	if n == 0 {
		return 0, nil
	}
	rc := startRunClock(doneNs)
	var written C.size_t
	err := cError(C.gdb_put_run(d.db, d.writeOptions(wo), C.size_t(n), bytesPtr(keys), C.size_t(keyLen),
		bytesPtr(values), (*C.int32_t)(unsafe.Pointer(&ends[0])), &written, timesPtr(doneNs), rc.ticking()))
	rc.finish(doneNs, int(written))
	return int(written), err
}

// valueBuf is a Go buffer that Get copies values into.
type valueBuf struct{ b []byte }

const (
	initialValueBuf = 4 << 10 // db_bench's values are 100 bytes by default
	maxValueBuf     = 1 << 20 // larger values always come back in C memory
)

// valueBufs keeps Get's buffers; sync.Pool holds one per P, so a lookup
// costs two pool operations (~10 ns each).
var valueBufs = sync.Pool{New: func() any { return &valueBuf{b: make([]byte, initialValueBuf)} }}

// Flush implements engine.DB: it flushes the memtables and waits; with
// column families, those of every family, as db_bench's flush does.
func (d *DB) Flush() error {
	if d.db == nil {
		return errClosed
	}
	if d.families != nil {
		return d.flushFamilies()
	}
	return d.flush(d.cf)
}

// flush flushes the memtables of column family cf and waits.
func (d *DB) flush(cf *C.rocksdb_column_family_handle_t) error {
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_flush_cf(d.db, cf))
}

// Compact implements engine.DB like db_bench's compact (kForceOptimized
// bottommost compaction, change_level when targetLevel >= 0).
func (d *DB) Compact(start, end []byte, targetLevel int) error {
	if d.db == nil {
		return errClosed
	}
	// A nil bound is unbounded; a non-nil empty one is the empty key, so it
	// needs a non-NULL pointer.
	var zero [1]byte
	sp, ep := bytesPtr(start), bytesPtr(end)
	if start != nil && sp == nil {
		sp = (*C.char)(unsafe.Pointer(&zero[0]))
	}
	if end != nil && ep == nil {
		ep = (*C.char)(unsafe.Pointer(&zero[0]))
	}
	return cError(C.gdb_compact_range(d.db, sp, C.size_t(len(start)), ep, C.size_t(len(end)), C.int(targetLevel)))
}

// backgroundWorkProperties are polled by WaitForCompactions, as db_bench's
// waitforcompaction does.
var backgroundWorkProperties = []string{
	"rocksdb.mem-table-flush-pending",
	"rocksdb.num-running-flushes",
	"rocksdb.compaction-pending",
	"rocksdb.num-running-compactions",
}

// waitPollInterval is how often WaitForCompactions polls. A flush of a 64 MiB
// memtable takes hundreds of milliseconds, so 10 ms adds at most a few
// percent to a wait while costing nothing measurable.
const waitPollInterval = 10 * time.Millisecond

// WaitForCompactions implements engine.DB by polling the pending/running
// flush and compaction properties until all are zero.
func (d *DB) WaitForCompactions() error {
	if d.db == nil {
		return errClosed
	}
	names := make([]*C.char, len(backgroundWorkProperties))
	for i, n := range backgroundWorkProperties {
		names[i] = cString(n)
	}
	defer func() {
		for _, p := range names {
			cFree(unsafe.Pointer(p))
		}
	}()
	for {
		busy := false
		for _, p := range names {
			var v C.uint64_t
			if C.rocksdb_property_int(d.db, p, &v) == 0 && v > 0 {
				busy = true
				break
			}
		}
		if !busy {
			return nil
		}
		time.Sleep(waitPollInterval)
	}
}

// StatisticsProperty is the property name under which Property returns the
// statistics dump (db_bench's STATISTICS: block) when options.Statistics is set.
const StatisticsProperty = "rocksdb.options-statistics"

// Property implements engine.DB: RocksDB property names are passed through
// unchanged; StatisticsProperty returns the statistics string.
func (d *DB) Property(name string) (string, bool) {
	if d.db == nil {
		return "", false
	}
	if name == SimCacheProperty {
		return d.cfg.simCacheReport()
	}
	if name == SecondaryUpdatesProperty {
		return d.secondary.report()
	}
	if name == StatisticsProperty {
		if !d.cfg.statistics {
			return "", false
		}
		s := C.rocksdb_options_statistics_get_string(d.cfg.opts)
		if s == nil {
			return "", false
		}
		out := C.GoString(s)
		C.rocksdb_free(unsafe.Pointer(s))
		return out, true
	}
	return d.property(d.cf, name)
}

// property is column family cf's value of the RocksDB property name.
func (d *DB) property(cf *C.rocksdb_column_family_handle_t, name string) (string, bool) {
	if d.db == nil {
		return "", false
	}
	cname := cString(name)
	defer cFree(unsafe.Pointer(cname))
	v := C.rocksdb_property_value_cf(d.db, cf, cname)
	if v == nil {
		return "", false
	}
	out := C.GoString(v)
	C.rocksdb_free(unsafe.Pointer(v))
	return out, true
}

// ResetStats implements engine.DB: DB::ResetStats, which clears the
// "rocksdb.stats" counters and leaves the statistics object alone (its
// counts cover the run, as db_bench's resetstats leaves them).
func (d *DB) ResetStats() error {
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_reset_stats(d.db))
}

// Close implements engine.DB. Iterators and batches must be closed first.
func (d *DB) Close() error {
	var err error
	d.closeOnce.Do(func() {
		err = d.endBlockCacheTrace()
		d.secondary.stop()
		d.closeFamilies()
		C.rocksdb_column_family_handle_destroy(d.cf)
		d.closeTransactionDB()
		C.rocksdb_close(d.db)
		C.rocksdb_readoptions_destroy(d.ro)
		for _, w := range d.wo {
			C.rocksdb_writeoptions_destroy(w)
		}
		d.cfg.destroy()
		d.db = nil
	})
	return err
}

func destroyDB(dir string, cfg *config) error {
	path := cString(dir)
	defer cFree(unsafe.Pointer(path))
	return cError(C.gdb_destroy_db(cfg.opts, path))
}
