package dbbench

import (
	"fmt"
	"time"

	"github.com/godbbench/godbbench/engine"
)

// sizeGetterFor returns the engine's SizeGetter when readrandom may use it
// (the loop only counts what it finds), with the engine's TimedRunner when
// the thread records per-operation latencies (runTimer). Not with a read
// rate limit, --report_json's value checksum, the stride pattern of
// --multiread_stride, or --duration (which would stop up to a run late).
func (r *runner) sizeGetterFor(t *thread) (engine.SizeGetter, engine.TimedRunner, bool) {
	sg, ok := r.db.(engine.SizeGetter)
	if !ok || t.shared.readLimiter != nil || r.foldReads ||
		r.cfg.duration > 0 || (r.entriesPerBatch > 1 && r.cfg.multireadStride != 0) {
		return nil, nil, false
	}
	tr, ok := r.runTimer(t)
	return sg, tr, ok
}

// runTimer decides runs for a thread that may record per-operation
// latencies (--histogram, --report_interval_seconds): without them runs need
// no timing (nil, true); with them they need the engine's TimedRunner, and
// are not used (nil, false) when it has none.
func (r *runner) runTimer(t *thread) (engine.TimedRunner, bool) {
	if !t.stats.detailed {
		return nil, true
	}
	tr, ok := r.db.(engine.TimedRunner)
	return tr, ok
}

// readRandomSizes is benchReadRandom through a SizeGetter, in runs of keys
// (runs.go), timed through tr when it is not nil.
func (r *runner) readRandomSizes(t *thread, sg engine.SizeGetter, tr engine.TimedRunner) {
	d := r.newDuration(0, r.reads)
	ks := r.keySize
	run := runOps(ks)
	keys := make([]byte, run*ks) // Fill writes every byte
	sizes := make([]int32, run)
	var doneNs []int64
	if tr != nil {
		doneNs = make([]int64, run)
	}
	var read, found, bytes int64
	for {
		limit := t.stats.runLimit(int64(run))
		n := 0
		for int64(n) < limit && !d.done(1) {
			t.rand.Next() // DB selection draw
			r.keys.Fill(keys[n*ks:(n+1)*ks], r.randomKey(t))
			n++
		}
		if n == 0 {
			break
		}
		var callStart time.Time
		var err error
		if tr != nil {
			callStart = time.Now()
			err = tr.GetSizesTimed(keys[:n*ks], ks, sizes[:n], doneNs[:n])
		} else {
			err = sg.GetSizes(keys[:n*ks], ks, sizes[:n])
		}
		if err != nil {
			t.fail("Get returned an error: %v", err)
		}
		for _, sz := range sizes[:n] {
			if sz >= 0 {
				found++
				bytes += int64(ks) + int64(sz) + int64(r.cfg.userTimestampSize)
			}
		}
		read += int64(n)
		if tr != nil {
			t.stats.finishedTimedRun(callStart, doneNs[:n], opRead)
		} else {
			t.stats.finishedOps(int64(n), opRead)
		}
		if int64(n) < limit {
			break // the duration ran out mid-run
		}
	}
	t.stats.reads += read
	t.stats.found += found
	t.stats.addBytes(bytes)
	t.stats.addMessage(fmt.Sprintf("(%d of %d found)\n", found, read))
}

// scanSizes is readScan's forward loop through a SizeScanner, on an
// iterator just positioned on its first entry: the same Next calls, in runs
// of maxRunOps (runs.go) that never cross a progress-report or
// stats-interval boundary, timed through ts when it is not nil (the thread
// records per-operation latencies). It returns the entries and bytes
// counted.
func (r *runner) scanSizes(t *thread, ss engine.SizeScanner, ts engine.TimedScanner) (entries, bytes int64) {
	var doneNs []int64
	if ts != nil {
		doneNs = make([]int64, maxRunOps)
	}
	stepFirst := false
	for entries < r.reads {
		limit := t.stats.runLimit(min(maxRunOps, r.reads-entries))
		var n int
		var b int64
		var more bool
		var err error
		var callStart time.Time
		if ts != nil {
			callStart = time.Now()
			n, b, more, err = ts.ScanSizesTimed(int(limit), stepFirst, doneNs)
		} else {
			n, b, more, err = ss.ScanSizes(int(limit), stepFirst)
		}
		if err != nil {
			t.fail("iterator error: %v", err)
		}
		entries += int64(n)
		bytes += b
		switch {
		case n > 0 && ts != nil:
			t.stats.finishedTimedRun(callStart, doneNs[:n], opRead)
		case n > 0:
			t.stats.finishedOps(int64(n), opRead)
		}
		if !more {
			break
		}
		stepFirst = true
	}
	return entries, bytes
}
