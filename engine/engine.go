// Package engine defines the storage-engine contract that the db_bench driver
// runs against, and a registry of engines by name.
//
// Contract:
//   - A DB is safe for concurrent use by many goroutines.
//   - Byte slices passed in are not retained after a call returns (engines copy
//     what they keep), so the driver may reuse its key and value buffers.
//   - Bytes handed out (Get's callback argument, Iterator.Key and Value) are
//     valid only until the callback returns or the iterator moves; callers copy
//     what they keep. This lets engines avoid a copy on every read.
//   - An Iterator, a Batch and a Getter are used by one goroutine at a time.
//   - Every error is returned, never swallowed; the driver prints it.
//
// Hot paths (Get, Put, Apply, iterator steps) must not allocate in steady state:
// the driver calls them millions of times per second per thread.
//
// An engine may implement these optional interfaces: Runner (runner.go),
// runs of operations in one call for engines whose calls cross into C;
// ThreadContext, per-OS-thread state; TransactionDB (transactions.go);
// Maintainer (maintenance.go), RocksDB's maintenance calls, which only a
// few benchmarks make; for backups Checkpointer on a DB and BackupEngine
// on an Opener (checkpoint.go); and for --trace_file Tracer on a DB
// (trace.go). None is on a hot path but Runner's. The driver reaches
// runs only through Runs (runs.go), which uses the engine's Runner where
// it has one and loops of single calls otherwise, so it has one loop per
// benchmark for every engine.
package engine

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/godbbench/godbbench/options"
)

// WriteOptions are per-write settings, reused by the caller across writes.
type WriteOptions struct {
	Sync       bool // fsync the WAL before acknowledging (db_bench --sync)
	DisableWAL bool // skip the WAL (db_bench --disable_wal)
}

// IterOptions bound an iterator. Nil bounds mean unbounded.
type IterOptions struct {
	LowerBound []byte // inclusive
	UpperBound []byte // exclusive
	// KeysOnly hints that Value will not be called (db_bench --scan_omit_value),
	// so an engine with lazy values can skip loading them.
	KeysOnly bool
	// Tailing asks for a tailing iterator (RocksDB's ReadOptions::tailing,
	// db_bench --use_tailing_iterator): each First, Last, SeekGE and SeekLE
	// sees every write made before it, not only those made before NewIter.
	// An engine without one uses NewTailingIter.
	Tailing bool
}

// Batch accumulates writes applied atomically by DB.Apply. Reset makes it
// empty so one batch can be reused for every write of a thread.
type Batch interface {
	Put(key, value []byte)
	Delete(key []byte)
	// Merge adds value as a merge operand of key (RocksDB's
	// WriteBatch::Merge). Apply fails with ErrBatchMergeNoOperator when
	// the DB was opened without a merge operator.
	Merge(key, value []byte)
	// DeleteRange deletes every key in [start, end) (RocksDB's
	// WriteBatch::DeleteRange). An engine without range deletions fails
	// the batch's Apply with ErrNoRangeDeletions.
	DeleteRange(start, end []byte)
	Count() int
	Reset()
	Close() // releases engine resources; the batch is unusable afterwards
}

// Iterator walks keys in ascending bytewise order. Positioning methods return
// whether the iterator is valid afterwards.
type Iterator interface {
	First() bool
	Last() bool
	SeekGE(key []byte) bool // first key >= key
	SeekLE(key []byte) bool // last key <= key (RocksDB SeekForPrev)
	Next() bool
	Prev() bool
	Valid() bool
	Key() []byte
	// Value returns the value at the current position, loading it on demand
	// when the engine stores values lazily.
	Value() ([]byte, error)
	Error() error
	Close() error
}

// DB is one open database.
type DB interface {
	Put(key, value []byte, wo *WriteOptions) error
	Delete(key []byte, wo *WriteOptions) error
	// Merge writes value as a merge operand of key, combined with the
	// key's earlier value and operands by the merge operator named by
	// options.Options.MergeOperator (db_bench --merge_operator) when the
	// key is read, with results equal byte for byte to RocksDB's. Without
	// a merge operator it fails with ErrNoMergeOperator.
	Merge(key, value []byte, wo *WriteOptions) error
	// SingleDelete is RocksDB's DB::SingleDelete: it deletes key, which
	// must have been written by one Put since it was last deleted (or
	// never been); otherwise the result is undefined, as in RocksDB. An
	// engine without single deletes writes a Delete, which leaves the same
	// contents whenever that holds.
	SingleDelete(key []byte, wo *WriteOptions) error
	// DeleteRange deletes every key in [start, end) in one write (RocksDB's
	// DB::DeleteRange): reads after it see none of those keys, and later
	// writes to them are seen again. An engine without range deletions
	// returns an error wrapping ErrNoRangeDeletions.
	DeleteRange(start, end []byte, wo *WriteOptions) error
	NewBatch() Batch
	Apply(b Batch, wo *WriteOptions) error
	// Get looks key up; when found, fn is called with the value, which is valid
	// only during the call. Callers pass a long-lived fn (a method value made
	// once per thread) so the call does not allocate.
	Get(key []byte, fn func(value []byte)) (found bool, err error)
	// GetMergeOperands is RocksDB's DB::GetMergeOperands: when key has a
	// value, fn is called once per operand, oldest first, each valid only
	// during its call. A key written by Put and then merged yields the
	// Put's value as its first operand; a key last written by Put yields
	// that value alone; a deleted or absent key yields nothing and found
	// false. An engine that cannot list operands returns an error naming
	// itself.
	GetMergeOperands(key []byte, fn func(operand []byte)) (found bool, err error)
	NewIter(o *IterOptions) (Iterator, error)
	// Flush writes the memtable(s) out and waits until that is done.
	Flush() error
	// Compact compacts [start, end] (nil means unbounded on that side). A
	// targetLevel >= 0 asks for the output to land in that level
	// (db_bench --compact_target_level); -1 means the engine's choice.
	Compact(start, end []byte, targetLevel int) error
	// WaitForCompactions blocks until no flush or compaction is pending or running.
	WaitForCompactions() error
	// Property returns engine state by RocksDB property name: "rocksdb.stats",
	// "rocksdb.levelstats", "rocksdb.sstables", "rocksdb.num-immutable-mem-table",
	// "rocksdb.cur-size-active-mem-table", ... and false when not supported.
	Property(name string) (string, bool)
	// ResetStats clears cumulative statistics (db_bench resetstats).
	ResetStats() error
	Close() error
}

// ThreadContext is implemented by engines that keep per-OS-thread state,
// which db_bench sets up at the start of every benchmark thread and reports
// at its end (ThreadBody). The driver calls both methods on the benchmark
// thread's own OS thread (its goroutine is locked to it).
type ThreadContext interface {
	// StartThread runs before the thread's first operation: it sets the
	// thread's perf level to perfLevel (db_bench's --perf_level, RocksDB's
	// PerfLevel numbering: 1 disables, db_bench's default) and zeroes the
	// thread's perf context, as a fresh db_bench thread has.
	StartThread(perfLevel int)
	// PerfContext is the thread's perf context as text (RocksDB's
	// PerfContext::ToString), which db_bench appends to the thread's
	// message after "PERF_CONTEXT:\n" when --perf_level > 1.
	PerfContext() string
}

// ErrNoMergeOperator is the error of a merge on a database opened without
// a merge operator, in RocksDB's words (its Status::NotSupported text), so
// db_bench's "merge error: ..." lines read the same on every engine.
var ErrNoMergeOperator = errors.New("Not implemented: Provide a merge_operator when opening DB")

// ErrBatchMergeNoOperator is the error of applying a batch holding a merge
// to a database opened without a merge operator, in RocksDB's words.
var ErrBatchMergeNoOperator = errors.New("Invalid argument: Merge requires `ColumnFamilyOptions::merge_operator != nullptr`")

// ErrSyncWithoutWAL is the error of a write asking for a sync with the WAL
// off (WriteOptions.Sync with DisableWAL, per write or per database), in
// RocksDB's words: there is nothing to sync, and success would promise a
// durability the write does not have.
var ErrSyncWithoutWAL = errors.New("Invalid argument: Sync writes has to enable WAL.")

// ErrNoRangeDeletions is wrapped by the error of a range deletion on an
// engine that has none, in RocksDB's words for an unsupported operation;
// the wrapping error names the engine.
var ErrNoRangeDeletions = errors.New("Not implemented: DeleteRange")

// Info describes an engine for the header lines.
type Info struct {
	Name    string // "native", "pebble", "rocksdb"
	Version string // printed on the header's version line, e.g. "7.8.3"
	// VersionLine is the whole stderr version line, e.g.
	// "RocksDB:    version 7.8.3" or "Pebble:     version v2.1.7".
	VersionLine string
	// ThreadLocking says when the driver locks each benchmark goroutine to
	// an OS thread of its own, as db_bench's pthreads are.
	ThreadLocking ThreadLocking
	// GCPercent is the Go collector's target (runtime/debug.SetGCPercent)
	// the driver runs this engine under when GOGC is not set; 0 leaves
	// the runtime's default (100).
	GCPercent int
	// SharedLibraries are the base-name prefixes of the shared libraries
	// the engine runs on and nothing else in the binary calls, such as
	// "librocksdb.so": a run of another engine gives back their resident
	// pages at start (internal/codepages).
	SharedLibraries []string
}

// ErrReadOnly is the error of a write to a database opened with
// options.ReadOnly, in RocksDB's words (its Status::NotSupported text), so
// db_bench's "put error: ..." line reads the same on every engine.
var ErrReadOnly = errors.New("Not implemented: Not supported operation in read only mode.")

// Opener opens (creating if missing) the database in dir. Options the engine
// cannot honour are reported once each on warn, never silently ignored. With
// options.ReadOnly, Open writes no file, fails when dir holds no database,
// and the DB's writes fail with ErrReadOnly.
type Opener interface {
	Info() Info
	Open(dir string, opts *options.Options, warn io.Writer) (DB, error)
	// Destroy removes every file of the database in dir (and its WAL dir).
	Destroy(dir string, opts *options.Options) error
}

var (
	mu       sync.Mutex
	registry = map[string]Opener{}
	missing  = map[string]string{}
)

// Register makes an engine available by name. Engine packages call it from init.
func Register(name string, o Opener) {
	mu.Lock()
	defer mu.Unlock()
	registry[name] = o
}

// RegisterMissing records why an engine is not built into this binary, so that
// asking for it gives that reason (e.g. the rocksdb build tag).
func RegisterMissing(name, why string) {
	mu.Lock()
	defer mu.Unlock()
	if _, ok := registry[name]; !ok {
		missing[name] = why
	}
}

// ErrUnknownEngine is wrapped by Lookup's error for names never registered.
var ErrUnknownEngine = errors.New("unknown engine")

// Lookup returns the engine registered under name.
func Lookup(name string) (Opener, error) {
	mu.Lock()
	defer mu.Unlock()
	if o, ok := registry[name]; ok {
		return o, nil
	}
	if why, ok := missing[name]; ok {
		return nil, fmt.Errorf("engine %q is not available: %s", name, why)
	}
	return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknownEngine, name, namesLocked())
}

// Names lists the registered engines in order.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	return namesLocked()
}

func namesLocked() []string {
	n := make([]string, 0, len(registry))
	for k := range registry {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
