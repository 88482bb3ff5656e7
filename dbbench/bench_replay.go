package dbbench

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/tracefmt"
)

// replay reads --trace_file (RocksDB's query trace format, written by this
// db_bench or C++ db_bench's --trace_file on any engine) and runs its
// records against the open DB, as RocksDB's default Replayer does: record
// i runs when (its timestamp - the header's) / --trace_replay_fast_forward
// has passed since the replay began, writes with default write options,
// gets whose key is absent count as success, seeks open an iterator with
// the record's bounds, position it and close it. With
// --trace_replay_threads > 1 the reader hands records to that many
// goroutines, and the error reported is that of the earliest record that
// failed. Records of other types (block cache, I/O) are skipped; a record
// of a column family other than the default one fails the replay, as the
// DB has only the default family.

// setupReplay makes db_bench's refusals of replay.
func setupReplay(r *runner, s *benchSpec) error {
	if s.threads > 1 {
		r.out.Flush()
		r.errf("Multi-threaded replay is not yet supported\n")
		return errExit{"replay threads"}
	}
	if r.cfg.traceFile == "" {
		r.out.Flush()
		r.errf("Please set --trace_file to be replayed from\n")
		return errExit{"no trace file"}
	}
	return nil
}

// benchReplay is db_bench's Replay: the outcome goes to stdout on success
// and stderr on failure, and the run goes on either way; only a missing
// file ends it. With several databases it replays nothing and reads no
// file, as db_bench's replays into db_.db only, unset then.
func benchReplay(r *runner, _ *thread) error {
	if r.multi != nil {
		return nil
	}
	f, err := os.Open(r.cfg.traceFile)
	if err != nil {
		return fmt.Errorf("Encountered an error creating a TraceReader from the trace file. Error: %s", ioErrorText("While open a file for random read", r.cfg.traceFile, err))
	}
	defer f.Close()
	tr, err := tracefmt.NewReader(f)
	if err != nil {
		r.errf("Prepare for replay failed. Error: %s\n", err)
	}
	if err = replayTrace(r.db, tr, r.cfg.traceReplayFastForward, int(r.cfg.traceReplayThreads)); err != nil {
		r.errf("Replay failed. Error: %s\n", err)
		return nil
	}
	r.outf("Replay completed from trace_file: %s\n", r.cfg.traceFile)
	return nil
}

// replayTrace runs the trace of tr (nil: its header did not read) against db.
func replayTrace(db engine.DB, tr *tracefmt.Reader, fastForward float64, threads int) error {
	if !(fastForward > 0) {
		return errors.New("Invalid argument: Wrong fast forward speed!")
	}
	if tr == nil {
		return errors.New("Result incomplete: Not prepared!")
	}
	if threads <= 1 {
		return replayInline(db, tr, fastForward)
	}
	return replayParallel(db, tr, fastForward, threads)
}

// replayWait sleeps until the record stamped ts is due.
func replayWait(epoch time.Time, headerTS, ts uint64, fastForward float64) {
	due := epoch.Add(time.Duration(math.Round(float64(ts-headerTS)/fastForward)) * time.Microsecond)
	if d := time.Until(due); d > 0 {
		time.Sleep(d)
	}
}

func replayInline(db engine.DB, tr *tracefmt.Reader, fastForward float64) error {
	x := newReplayExecutor(db, tr.Version())
	defer x.close()
	epoch := time.Now()
	for {
		rec, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		replayWait(epoch, tr.HeaderTS(), rec.TS, fastForward)
		if err := x.execute(rec.Type, rec.Payload); err != nil {
			return err
		}
	}
}

// replayJob is one record handed to a replay goroutine; jobs are reused.
type replayJob struct {
	ts      uint64
	typ     tracefmt.Type
	payload []byte
}

func replayParallel(db engine.DB, tr *tracefmt.Reader, fastForward float64, threads int) error {
	free := make(chan *replayJob, 2*threads)
	for i := 0; i < cap(free); i++ {
		free <- &replayJob{}
	}
	work := make(chan *replayJob)
	var mu sync.Mutex
	var firstErr error
	firstTS := uint64(math.MaxUint64)
	failed := func(ts uint64, err error) {
		mu.Lock()
		if ts < firstTS {
			firstErr, firstTS = err, ts
		}
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := newReplayExecutor(db, tr.Version())
			defer x.close()
			for j := range work {
				if err := x.execute(j.typ, j.payload); err != nil {
					failed(j.ts, err)
				}
				free <- j
			}
		}()
	}
	epoch := time.Now()
	var readErr error
	for {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		rec, err := tr.Next()
		if err != nil {
			if err != io.EOF {
				readErr = err
			}
			break
		}
		replayWait(epoch, tr.HeaderTS(), rec.TS, fastForward)
		j := <-free
		j.ts, j.typ, j.payload = rec.TS, rec.Type, append(j.payload[:0], rec.Payload...)
		work <- j
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return readErr
}

// replayExecutor runs records for one goroutine, with a batch and
// callbacks of its own made once.
type replayExecutor struct {
	db      engine.DB
	version int
	batch   engine.Batch
	wo      engine.WriteOptions
	discard func([]byte)
	getOne  func(cf uint32, key []byte)
	getErr  error
	apply   func(e *tracefmt.Entry) error
}

func newReplayExecutor(db engine.DB, version int) *replayExecutor {
	x := &replayExecutor{db: db, version: version, batch: db.NewBatch(), discard: func([]byte) {}}
	x.getOne = x.multiGetKey
	x.apply = x.addEntry
	return x
}

func (x *replayExecutor) close() { x.batch.Close() }

var errInvalidFamily = errors.New("Corruption: Invalid Column Family ID.")

// execute runs one record; types other than queries are skipped.
func (x *replayExecutor) execute(typ tracefmt.Type, payload []byte) error {
	switch typ {
	case tracefmt.TypeWrite:
		rep, err := tracefmt.DecodeWrite(x.version, payload)
		if err != nil {
			return err
		}
		x.batch.Reset()
		if err := tracefmt.BatchEntries(rep, x.apply); err != nil {
			return err
		}
		return x.db.Apply(x.batch, &x.wo)
	case tracefmt.TypeGet:
		cf, key, err := tracefmt.DecodeGet(x.version, payload)
		if err != nil {
			return err
		}
		if cf != 0 {
			return errInvalidFamily
		}
		_, err = x.db.Get(key, x.discard)
		return err
	case tracefmt.TypeSeek, tracefmt.TypeSeekForPrev:
		cf, key, lower, upper, err := tracefmt.DecodeSeek(x.version, payload)
		if err != nil {
			return err
		}
		if cf != 0 {
			return errInvalidFamily
		}
		return x.seek(typ, key, lower, upper)
	case tracefmt.TypeMultiGet:
		x.getErr = nil
		if _, err := tracefmt.DecodeMultiGet(x.version, payload, x.getOne); err != nil {
			return err
		}
		return x.getErr
	}
	return nil
}

func (x *replayExecutor) seek(typ tracefmt.Type, key, lower, upper []byte) error {
	o := engine.IterOptions{LowerBound: lower, UpperBound: upper}
	if len(lower) == 0 {
		o.LowerBound = nil
	}
	if len(upper) == 0 {
		o.UpperBound = nil
	}
	it, err := x.db.NewIter(&o)
	if err != nil {
		return err
	}
	if typ == tracefmt.TypeSeekForPrev {
		it.SeekLE(key)
	} else {
		it.SeekGE(key)
	}
	err = it.Error()
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	return err
}

// multiGetKey looks up one key of a MultiGet record, keeping the first error.
func (x *replayExecutor) multiGetKey(cf uint32, key []byte) {
	if x.getErr != nil {
		return
	}
	if cf != 0 {
		x.getErr = errInvalidFamily
		return
	}
	_, x.getErr = x.db.Get(key, x.discard)
}

// addEntry adds one entry of a traced batch to the executor's batch. A
// SingleDelete in a batch is a Delete here (engine.Batch has no single
// deletes; for a key written once since its last deletion, the only case
// RocksDB defines, they leave the same contents).
func (x *replayExecutor) addEntry(e *tracefmt.Entry) error {
	if e.Family != 0 {
		return errInvalidFamily
	}
	switch e.Kind {
	case tracefmt.EntryPut:
		x.batch.Put(e.Key, e.Value)
	case tracefmt.EntryMerge:
		x.batch.Merge(e.Key, e.Value)
	case tracefmt.EntryDelete, tracefmt.EntrySingleDelete:
		x.batch.Delete(e.Key)
	case tracefmt.EntryDeleteRange:
		x.batch.DeleteRange(e.Key, e.Value)
	}
	return nil
}
