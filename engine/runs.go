package engine

import (
	"fmt"

	"github.com/godbbench/godbbench/internal/clock"
)

// Runs performs runs of operations on a DB for one goroutine: through the
// engine's Runner when it has one and the run needs nothing back per
// entry, otherwise through a loop of the DB's single calls (Get, Put,
// MultiGet's Gets, iterator steps). Either way the engine sees the same
// operations in the same order, so a caller keeps one loop per benchmark
// whatever the engine; a loop of single Gets goes through the engine's
// RunReader when it has one (runreader.go). The methods follow Runner's
// contract, with what a Runner cannot do added: a callback per found value
// or scanned entry, and reverse scans. A Runs is not safe for concurrent
// use; its loops allocate nothing.
type Runs struct {
	db    DB
	own   Runner      // nil when the engine has no runs
	multi MultiGetter // nil when the DB has no batched lookup
	// reader is the engine's RunReader, nil when it has none: the single
	// Gets go through it, and each run ends it.
	reader RunReader

	// The state of the latest single-call loop, read by the callbacks
	// below, which are bound once so that passing them does not allocate.
	cur      int
	size     int32 // the value size recordSize saw
	getFn    func(i int, value []byte)
	takeSize func(value []byte)
	takeAt   func(value []byte)
}

// NewRuns returns the runs of db for one goroutine.
func NewRuns(db DB) *Runs {
	r := &Runs{db: db}
	r.own, _ = db.(Runner)
	r.multi, _ = db.(MultiGetter)
	if rr, ok := db.(RunReaders); ok {
		r.reader = rr.NewRunReader()
	}
	r.takeSize = r.recordSize
	r.takeAt = r.passValue
	return r
}

// OneCall reports whether a run goes to the engine's own Runner, in one
// engine call: the engine has one and the run calls nothing back per entry
// (perEntry false: no callback, and a forward scan). The caller sizes its
// runs by it: long ones amortise an engine call, while the single-call
// loops gain nothing from length.
func (r *Runs) OneCall(perEntry bool) bool { return r.own != nil && !perEntry }

// Get is Runner.GetRun, with fn, when not nil, called with every found
// value (valid only during the call) and its key's index.
func (r *Runs) Get(keys []byte, keyLen int, sizes []int32, fn func(i int, value []byte), doneNs []int64) error {
	if err := checkRun("GetRun", len(keys), keyLen, len(sizes), doneNs); err != nil {
		return err
	}
	if r.own != nil && fn == nil {
		return r.own.GetRun(keys, keyLen, sizes, doneNs)
	}
	var sw clock.Stopwatch // read only in a timed run
	if doneNs != nil {
		sw = clock.StartStopwatch()
	}
	var db PointGetter = r.db
	if r.reader != nil {
		db = r.reader
		defer r.reader.End()
	}
	take := r.takeSize
	r.getFn = fn
	for i := range sizes {
		r.cur = i
		found, err := db.Get(keys[:keyLen], take)
		if err != nil {
			return err
		}
		keys = keys[keyLen:]
		sizes[i] = -1
		if found {
			sizes[i] = r.size
		}
		if doneNs != nil {
			doneNs[i] = sw.Lap()
		}
	}
	if doneNs != nil {
		sw.ToNanos(doneNs)
	}
	return nil
}

// recordSize is Get's callback for the current key.
func (r *Runs) recordSize(value []byte) {
	r.size = int32(len(value))
	if r.getFn != nil {
		r.getFn(r.cur, value)
	}
}

// Put is Runner.PutRun.
func (r *Runs) Put(keys []byte, keyLen int, values []byte, ends []int32, wo *WriteOptions, doneNs []int64) (int, error) {
	n := len(ends)
	if err := checkRun("PutRun", len(keys), keyLen, n, doneNs); err != nil {
		return 0, err
	}
	if n > 0 && int(ends[n-1]) != len(values) {
		return 0, fmt.Errorf("PutRun: %d bytes of values, the last entry ending at %d", len(values), ends[n-1])
	}
	if r.own != nil {
		return r.own.PutRun(keys, keyLen, values, ends, wo, doneNs)
	}
	var sw clock.Stopwatch // read only in a timed run
	if doneNs != nil {
		sw = clock.StartStopwatch()
	}
	db := r.db
	from := int32(0)
	for i, end := range ends {
		if err := db.Put(keys[:keyLen], values[from:end], wo); err != nil {
			if doneNs != nil {
				sw.ToNanos(doneNs[:i])
			}
			return i, err
		}
		keys, from = keys[keyLen:], end
		if doneNs != nil {
			doneNs[i] = sw.Lap()
		}
	}
	if doneNs != nil {
		sw.ToNanos(doneNs)
	}
	return n, nil
}

// checkRun checks the lengths of a run of n operations on keys of keyLen
// bytes stored back to back.
func checkRun(method string, keyBytes, keyLen, n int, doneNs []int64) error {
	if keyLen <= 0 || keyBytes != n*keyLen {
		return fmt.Errorf("%s: %d bytes of keys for %d keys of %d bytes", method, keyBytes, n, keyLen)
	}
	if doneNs != nil && len(doneNs) != n {
		return fmt.Errorf("%s: %d times for %d operations", method, len(doneNs), n)
	}
	return nil
}

// ScanOptions say what a run of a scan (Runs.Scan) does beyond Runner.ScanRun.
type ScanOptions struct {
	// Reverse steps with Prev instead of Next (the scan starts from Last or
	// SeekLE).
	Reverse bool
	// KeysOnly counts key bytes only and never calls Value; it matches the
	// iterator's IterOptions.KeysOnly.
	KeysOnly bool
	// Entry, when not nil, is called with every entry counted (value nil
	// with KeysOnly), valid only during the call.
	Entry func(key, value []byte)
}

// ValueError is the error of a scan whose Iterator.Value failed, as
// opposed to the iterator's own Error.
type ValueError struct{ Err error }

func (e *ValueError) Error() string { return e.Err.Error() }
func (e *ValueError) Unwrap() error { return e.Err }

// ScanCounter is implemented by iterators that count a run of a scan
// themselves (the native engine's): ScanCount is Runner.ScanRun on the
// iterator (stepping with Prev when reverse, timed when doneNs is not
// nil), with the KeysOnly of the iterator's options, and a Value error
// returned apart (valueErr) from the iterator's own, which Error reports.
// Runs.Scan calls it once a run instead of the iterator's methods once an
// entry.
type ScanCounter interface {
	ScanCount(n int, stepFirst, reverse bool, doneNs []int64) (count int, bytes int64, more bool, valueErr error)
}

// Scan is Runner.ScanRun with o's additions (nil o: none). Only Scan with
// stepFirst, Error and Close may follow a Scan on it.
func (r *Runs) Scan(it Iterator, n int, stepFirst bool, o *ScanOptions, doneNs []int64) (count int, bytes int64, more bool, err error) {
	if o == nil {
		o = &ScanOptions{}
	}
	if doneNs != nil && len(doneNs) < n {
		return 0, 0, false, fmt.Errorf("ScanRun: %d times for %d entries", len(doneNs), n)
	}
	if r.own != nil && !o.Reverse && o.Entry == nil {
		return r.own.ScanRun(it, n, stepFirst, doneNs)
	}
	if sc, ok := it.(ScanCounter); ok && o.Entry == nil {
		count, bytes, more, valueErr := sc.ScanCount(n, stepFirst, o.Reverse, doneNs)
		switch {
		case valueErr != nil:
			err = &ValueError{valueErr}
		case !more:
			err = it.Error()
		}
		return count, bytes, more, err
	}
	if doneNs == nil {
		return scanEntries(it, n, stepFirst, o, nil, nil)
	}
	sw := clock.StartStopwatch()
	count, bytes, more, err = scanEntries(it, n, stepFirst, o, doneNs, &sw)
	sw.ToNanos(doneNs[:count])
	return count, bytes, more, err
}

// scanEntries is Scan's loop over an iterator's methods, with doneNs in
// sw's laps (sw is nil when doneNs is).
func scanEntries(it Iterator, n int, stepFirst bool, o *ScanOptions, doneNs []int64, sw *clock.Stopwatch) (count int, bytes int64, more bool, err error) {
	valid := it.Valid()
	if stepFirst && valid {
		valid = step(it, o.Reverse)
	}
	for valid && count < n {
		k := it.Key()
		var v []byte
		if !o.KeysOnly {
			if v, err = it.Value(); err != nil {
				return count, bytes, false, &ValueError{err}
			}
		}
		bytes += int64(len(k) + len(v))
		if o.Entry != nil {
			o.Entry(k, v)
		}
		if doneNs != nil {
			doneNs[count] = sw.Lap()
		}
		count++
		if count == n {
			return count, bytes, true, nil
		}
		valid = step(it, o.Reverse)
	}
	return count, bytes, false, it.Error()
}

func step(it Iterator, reverse bool) bool {
	if reverse {
		return it.Prev()
	}
	return it.Next()
}

// MultiGet is MultiGetter.MultiGet, a Get per key for DBs without one.
func (r *Runs) MultiGet(keys [][]byte, found []bool, fn func(i int, value []byte)) error {
	if len(found) < len(keys) {
		return fmt.Errorf("MultiGet: %d keys but room for %d results", len(keys), len(found))
	}
	if r.multi != nil {
		return r.multi.MultiGet(keys, found, fn)
	}
	r.getFn = fn
	for i, key := range keys {
		r.cur = i
		ok, err := r.db.Get(key, r.takeAt)
		if err != nil {
			return err
		}
		found[i] = ok
	}
	return nil
}

// passValue is MultiGet's callback for the current key.
func (r *Runs) passValue(value []byte) { r.getFn(r.cur, value) }
