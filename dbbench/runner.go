package dbbench

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/cxxrand"
	"github.com/godbbench/godbbench/options"
)

// runner is one db_bench process's state: the open engine, the flags turned
// into a config, and the per-benchmark counts that db_bench keeps in its
// Benchmark object (num_, reads_, writes_, key_size_, value_size,
// entries_per_batch_ ...), which are reset before each benchmark item.
type runner struct {
	cfg    config
	out    *bufio.Writer
	errw   *lockedWriter
	opener engine.Opener
	opts   *options.Options
	db     engine.DB
	// families routes operations to the open DB's column families
	// (--num_column_families > 1, columnfamilies.go); nil with one.
	families *columnFamilies
	// multi are the databases of --num_multi_db > 1 (multidb.go), r.db
	// the first of them; nil with one database.
	multi []dbSlot

	seedBase    int64
	threadCount int64 // db_bench's total_thread_count_: thread ordinals for seeding

	valueData []byte
	reportOps atomic.Int64
	json      *jsonReporter
	benchstat *benchstatReporter
	ycsb      *ycsbRun // the YCSB run being set up or run
	// foldReads: read benchmarks fold what they read into the record's
	// checksum. Only the JSON record carries it, so without --report_json
	// the hash is skipped and a scan touches no more bytes than db_bench's
	// (readseq on RocksDB: the fold is ~15 ns of a ~400 ns entry).
	foldReads bool
	// engineTrace is the engine's own tracer while it records the
	// running benchmark into --trace_file (trace.go); nil otherwise.
	engineTrace engine.Tracer
	// warnedPerfLevel: the --perf_level warning for an engine without a
	// perf context has been printed.
	warnedPerfLevel bool
	// warnedTableProperties: --show_table_properties found no table
	// properties on this engine and said so.
	warnedTableProperties bool
	prof                  *profiler

	// readOperands is db_bench's read_operands_: set by
	// readrandomoperands and never cleared, so every ReadRandom after it
	// in the run reads with GetMergeOperands.
	readOperands bool

	// transactionDB runs randomtransaction's transactions on transactionOf,
	// the open DB it was made for (bench_transaction.go).
	transactionDB engine.TransactionDB
	transactionOf engine.DB

	// Per-benchmark state, reset for each item of --benchmarks.
	num             int64
	reads           int64
	writes          int64
	deletes         int64
	readwrites      int64
	keySize         int
	valueSize       int
	entriesPerBatch int64
	wo              engine.WriteOptions
	keys            KeyGen
	// timestamps is timeseries' TimestampEmulator: the count of its
	// writes so far, shared by the writer and the readers.
	timestamps atomic.Uint64
	shape      valueShape
	benchIndex int
	// familyStats: the running benchmark's interval dumps print each
	// column family's stats (familystats.go).
	familyStats bool

	// openErr is the failure db_bench's first Open reports while it reads
	// the options (options file, option flags), printed by open.
	openErr error

	// openLog, when set, is the engine's message writer at open instead of
	// stderr (Main holds back the messages of the first Open).
	openLog *heldWriter

	// clock replaces time.Now for the progress and interval lines in tests;
	// nil means the real clock.
	clock func() time.Time
}

// now is the time the progress and interval lines use.
func (r *runner) now() time.Time {
	if r.clock != nil {
		return r.clock()
	}
	return time.Now()
}

// lockedWriter serialises writes from benchmark threads (progress lines).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// heldWriter holds what is written to it until release, then passes it on
// to w, and everything after it straight through. Engines keep the writer
// they get at Open for the life of the database, so it must stay valid.
type heldWriter struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	held bool
}

func newHeldWriter(w io.Writer) *heldWriter { return &heldWriter{w: w, held: true} }

func (h *heldWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held {
		h.buf = append(h.buf, p...)
		return len(p), nil
	}
	return h.w.Write(p)
}

// release writes out what was held and stops holding.
func (h *heldWriter) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held {
		h.held = false
		h.w.Write(h.buf)
		h.buf = nil
	}
}

func (r *runner) errf(format string, a ...any) { fmt.Fprintf(r.errw, format, a...) }
func (r *runner) outf(format string, a ...any) { fmt.Fprintf(r.out, format, a...) }

// thread is a benchmark worker's state (db_bench's ThreadState).
type thread struct {
	tid    int
	rand   *cxxrand.MT64
	stats  Stats
	shared *sharedState
	err    error
}

// sharedState is what the threads of one run share (db_bench's SharedState).
type sharedState struct {
	total        int
	numDone      atomic.Int64
	writeLimiter *rateLimiter
	readLimiter  *rateLimiter
	mixOnce      sync.Once // mixgraph's limiters replace the two above once
}

// othersDone tells a background writer that every other thread finished.
func (s *sharedState) othersDone() bool { return s.numDone.Load()+1 >= int64(s.total) }

// benchFn is a benchmark thread's body; an error (an engine call's, in
// db_bench's words) ends the run, and the runner prints it and exits 1
// once every thread has stopped.
type benchFn func(r *runner, t *thread) error

// runBenchmark runs fn in n goroutines that start together, merges their
// stats and prints the result line, as db_bench's RunBenchmark does.
func (r *runner) runBenchmark(n int, name string, fn benchFn, warmup bool) (*Stats, error) {
	shared := &sharedState{total: n}
	if r.cfg.writeRateLimit > 0 {
		shared.writeLimiter = newRateLimiter(float64(r.cfg.writeRateLimit))
	} else if r.cfg.sineWrite.on {
		// No limit until the wave first turns positive (sinewrite.go).
		shared.writeLimiter = newRateLimiter(math.Inf(1))
	}
	if r.cfg.readRateLimit > 0 {
		shared.readLimiter = newRateLimiter(float64(r.cfg.readRateLimit))
	}
	var csv *csvReporter
	if r.cfg.reportInterval > 0 {
		r.reportOps.Store(0)
		var err error
		if csv, err = startCSVReporter(r.cfg.reportFile, r.cfg.reportInterval, &r.reportOps); err != nil {
			return nil, err
		}
	}
	threads := make([]*thread, n)
	for i := range threads {
		r.threadCount++
		threads[i] = &thread{tid: i, rand: cxxrand.NewMT64(uint64(r.seedBase + r.threadCount)), shared: shared}
	}
	stopProf, err := r.prof.start(r.benchIndex, name)
	if err != nil {
		return nil, err
	}
	lockThreads := r.opener.Info().ThreadLocking.Locks(n, runtime.GOMAXPROCS(0))
	var ready, done sync.WaitGroup
	startCh := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for _, t := range threads {
		go func(t *thread) {
			// Each benchmark thread owns an OS thread, as db_bench's pthreads
			// do. Without this the scheduler moves a goroutine between OS
			// threads mid-run; with cgo engines that puts RocksDB's block
			// allocations on another malloc arena each time (measured on
			// readrandom: 23.8k vs 2.8k minor faults per 100k reads, 25.5 vs
			// 19.8 µs/op). Stats.finishedOps yields to the scheduler every few
			// milliseconds (yield.go), or the scheduler's monitor would take
			// the P from a thread inside a cgo call at every tick. An engine
			// whose writes wait for its own goroutines is not locked
			// (engine.LockNever), nor are the threads of an engine that
			// asks for it beyond GOMAXPROCS of them (engine.LockUpToProcs).
			if lockThreads {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			tc, hasContext := untraced(r.db).(engine.ThreadContext)
			if hasContext {
				tc.StartThread(r.cfg.perfLevel)
			}
			defer func() {
				if p := recover(); p != nil {
					t.err = r.threadPanicError(name, p)
				}
				t.stats.stop()
				shared.numDone.Add(1)
				done.Done()
			}()
			ready.Done()
			<-startCh
			t.stats.startAt(r, t.tid)
			if err := fn(r, t); err != nil {
				t.err = err
				return
			}
			if hasContext && r.cfg.perfLevel > 1 {
				t.stats.addMessage("PERF_CONTEXT:\n" + tc.PerfContext())
			}
		}(t)
	}
	ready.Wait()
	benchStart := time.Now()
	close(startCh)
	done.Wait()
	// The merged record's start time is its finish time (db_bench's Stats
	// object made after the join), so it is taken before the profiler and
	// the CSV reporter are stopped, whose cost is no part of the run.
	var merged Stats
	merged.startAt(r, -1)
	stopProf()
	if csv != nil {
		csv.stop()
	}
	for _, t := range threads {
		merged.merge(&t.stats)
	}
	for _, t := range threads {
		if t.err != nil {
			return nil, t.err
		}
	}
	if r.cfg.reportBenchStartTime {
		r.outf("%s ", isoMicros(merged.start))
	}
	merged.report(r.out, name, r.cfg.histogram)
	r.printFileOperations()
	r.out.Flush()
	r.json.record(r, name, &merged, n, warmup, benchStart)
	if !warmup {
		r.benchstat.record(name, &merged, n)
	}
	return &merged, nil
}

// threadPanicError turns a panic in a benchmark thread into the error Main
// prints before exiting 1. The one db_bench input known to get here is
// --num=0 with a benchmark that picks random keys: db_bench dies of SIGFPE on
// its rand % num, and Go's integer division panics at the same spot.
func (r *runner) threadPanicError(name string, p any) error {
	if err, ok := p.(runtime.Error); ok && strings.Contains(err.Error(), "divide by zero") && r.num <= 0 {
		return fmt.Errorf("%s: --num=%d leaves no keys to pick at random", name, r.num)
	}
	return fmt.Errorf("%s: internal error: %v", name, p)
}
