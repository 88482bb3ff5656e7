package dbbench

import (
	"time"

	"github.com/godbbench/godbbench/engine"
)

// runPutterFor returns the engine's RunPutter when a fill may use it, with
// the engine's TimedRunner when the thread records per-operation latencies
// (runTimer): one entry per write (--batch_size 1), no write rate limit, and
// no --duration (which would stop up to a run late).
func (r *runner) runPutterFor(t *thread, seconds int64) (engine.RunPutter, engine.TimedRunner, bool) {
	rp, ok := r.db.(engine.RunPutter)
	if !ok || r.entriesPerBatch != 1 || t.shared.writeLimiter != nil || seconds > 0 {
		return nil, nil, false
	}
	tr, ok := r.runTimer(t)
	return rp, tr, ok
}

// writeRuns is doWrite's loop through a RunPutter, in runs (runs.go): keys
// and values are drawn exactly as the one-Put loop draws them, and a run
// never crosses a progress-report or stats-interval boundary. A run also
// ends once its values reach runBufBytes, so large values (fill100K) do not
// make a large buffer. Runs are timed through tr when it is not nil. It
// returns the bytes written.
func (r *runner) writeRuns(t *thread, rp engine.RunPutter, tr engine.TimedRunner, d *duration, nextKey func() int64, gen *ValueGen) int64 {
	ks := r.keySize
	run := runOps(ks)
	keys := make([]byte, run*ks)
	ends := make([]int32, run)
	var doneNs []int64
	if tr != nil {
		doneNs = make([]int64, run)
	}
	var values []byte
	entryOverhead := int64(ks + r.cfg.userTimestampSize)
	var bytes int64
	for {
		limit := t.stats.runLimit(int64(run))
		n := 0
		values = values[:0]
		for int64(n) < limit && len(values) < runBufBytes && !d.done(1) {
			t.rand.Next() // DB selection draw
			r.keys.Fill(keys[n*ks:(n+1)*ks], nextKey())
			val := gen.Generate()
			values = append(values, val...)
			ends[n] = int32(len(values))
			bytes += int64(len(val)) + entryOverhead
			n++
		}
		if n == 0 {
			break
		}
		var err error
		if tr != nil {
			callStart := time.Now()
			if _, err = tr.PutRunTimed(keys[:n*ks], ks, values, ends[:n], &r.wo, doneNs[:n]); err == nil {
				t.stats.finishedTimedRun(callStart, doneNs[:n], opWrite)
			}
		} else if _, err = rp.PutRun(keys[:n*ks], ks, values, ends[:n], &r.wo); err == nil {
			t.stats.finishedOps(int64(n), opWrite)
		}
		if err != nil {
			t.fail("put error: %v", err)
		}
		if int64(n) < limit && len(values) < runBufBytes {
			break // the write count ran out mid-run
		}
	}
	return bytes
}
