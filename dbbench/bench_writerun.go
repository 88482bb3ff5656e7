package dbbench

import (
	"fmt"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/clock"
)

// writeRuns is doWrite's loop for one entry per write (--batch_size 1), in
// runs (runs.go): keys and values are drawn exactly as one Put at a time
// draws them. A run also ends once its values reach runBufBytes, so that
// large values (fill100K) make short runs, and holds a single write under
// a write rate limit, which db_bench requests before every write. It
// returns the bytes written.
func (r *runner) writeRuns(t *thread, d *duration, keySrc *writeKeys, gen *ValueGen) (int64, error) {
	runs := engine.NewRuns(r.db)
	oneCall := runs.OneCall(false)
	ks := r.keySize
	run := maxRun(oneCall, ks)
	keys := make([]byte, run*ks)
	ends := make([]int32, run)
	var doneNs []int64
	if t.stats.detailed {
		doneNs = make([]int64, run)
	}
	var values runValues
	lim := t.shared.writeLimiter
	entryOverhead := int64(ks + r.cfg.userTimestampSize)
	var bytes int64
	for {
		limit := d.runLimit(t.stats.runLimit(t.stats.runCap(oneCall, ks)))
		if lim != nil {
			limit = 1
		}
		n, off := 0, 0
		values.reset()
		for int64(n) < limit && values.n < runBufBytes && !d.done(1) {
			t.rand.Next() // DB selection draw
			r.keys.Fill(keys[off:off+ks], keySrc.next())
			off += ks
			val := gen.Generate()
			values.add(val)
			ends[n] = int32(values.n)
			bytes += int64(len(val)) + entryOverhead
			n++
		}
		if n == 0 {
			break
		}
		if lim != nil {
			lim.request(int64(ends[0]) + entryOverhead)
			t.stats.resetLastOpTime()
		}
		var callStart int64
		if doneNs != nil {
			callStart = clock.Nanos()
		}
		if _, err := runs.Put(keys[:n*ks], ks, values.all(), ends[:n], &r.wo, runTimes(doneNs, n)); err != nil {
			return bytes, fmt.Errorf("put error: %v", err)
		}
		if doneNs != nil {
			t.stats.finishedTimedRun(callStart, doneNs[:n], opWrite)
		} else {
			t.stats.finishedOps(int64(n), opWrite)
		}
		if int64(n) < limit && values.n < runBufBytes {
			break // the write count or the duration ran out mid-run
		}
	}
	return bytes, nil
}

// runValues gathers the values of a run back to back. ValueGen's values
// are consecutive pieces of one buffer, so a run's values are usually one
// piece of it already and nothing is copied; from a value that does not
// follow the one before (the generator started over) to the end of the
// run, they are copied into a scratch buffer.
type runValues struct {
	piece   []byte // the run's values while they are one piece, else nil
	scratch []byte // the run's values once copied
	copied  bool
	n       int // the run's bytes of values
}

func (v *runValues) reset() {
	v.piece, v.scratch, v.copied, v.n = nil, v.scratch[:0], false, 0
}

func (v *runValues) add(val []byte) {
	v.n += len(val)
	if follows(v.piece, val) { // never once copied: the piece is then nil
		v.piece = v.piece[:len(v.piece)+len(val)]
		return
	}
	v.addApart(val)
}

// addApart is add for a value that does not extend the piece; kept out of
// line so that add inlines.
//
//go:noinline
func (v *runValues) addApart(val []byte) {
	switch {
	case v.copied:
		v.scratch = append(v.scratch, val...)
	case len(val) == 0:
	case len(v.piece) == 0:
		v.piece = val
	default:
		v.scratch = append(append(v.scratch[:0], v.piece...), val...)
		v.piece, v.copied = nil, true
	}
}

// all is the run's values so far.
func (v *runValues) all() []byte {
	if v.copied {
		return v.scratch
	}
	return v.piece
}

// follows reports whether b, not empty, starts at the byte just past a's
// end, in the same array.
func follows(a, b []byte) bool {
	return len(b) > 0 && cap(a) > len(a) && &a[:len(a)+1][len(a)] == &b[0]
}
