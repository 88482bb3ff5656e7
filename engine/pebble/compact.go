package pebble

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Flush writes the memtable out and waits for it.
func (d *DB) Flush() error {
	if d.closed.Load() {
		return errClosed
	}
	if err := d.writable(); err != nil {
		return err
	}
	return d.db.Flush()
}

// Compact compacts the keys in [start, end] (nil: from the first key / to the
// last key). Pebble wants start < end with end inclusive, so nil bounds are
// replaced by the database's first and last keys, and a one-key range gets
// the key's immediate successor as its end. Pebble cannot choose the output
// level: a targetLevel >= 0 is reported once and compaction goes where Pebble
// puts it (down to the deepest level holding overlapping data).
func (d *DB) Compact(start, end []byte, targetLevel int) error {
	if d.closed.Load() {
		return errClosed
	}
	if err := d.writable(); err != nil {
		return err
	}
	if targetLevel >= 0 && d.warnedTarget.CompareAndSwap(false, true) {
		d.logger.warnf("WARNING: engine pebble cannot compact to a chosen level; ignoring target level %d\n", targetLevel)
	}
	if start != nil && end != nil && bytes.Compare(start, end) > 0 {
		return fmt.Errorf("pebble: compact range start %q is after end %q", start, end)
	}
	if start == nil || end == nil {
		first, last, ok, err := d.keyRange()
		if err != nil {
			return err
		}
		if !ok {
			return nil // empty database: nothing to compact
		}
		if start == nil {
			start = first
		}
		if end == nil {
			end = last
		}
		if bytes.Compare(start, end) > 0 {
			return nil // the range holds no key
		}
	}
	if bytes.Equal(start, end) {
		end = append(bytes.Clone(end), 0)
	}
	return d.db.Compact(context.Background(), start, end, d.concurrency > 1)
}

// keyRange returns copies of the first and last keys, or ok false when the
// database holds none.
func (d *DB) keyRange() (first, last []byte, ok bool, err error) {
	it, err := d.db.NewIter(nil)
	if err != nil {
		return nil, nil, false, err
	}
	if it.First() {
		first = bytes.Clone(it.Key())
		if it.Last() {
			last = bytes.Clone(it.Key())
		}
	}
	if err := it.Error(); err != nil {
		it.Close()
		return nil, nil, false, err
	}
	if err := it.Close(); err != nil {
		return nil, nil, false, err
	}
	return first, last, first != nil && last != nil, nil
}

// waitPoll is how often WaitForCompactions samples Pebble's metrics: a
// flush or compaction takes tens of milliseconds at least, so 10 ms polling
// adds under one poll of latency at a cost of one Metrics call (a few µs).
const waitPoll = 10 * time.Millisecond

// stuckPending is how long a level may report needing compaction while no
// compaction runs before WaitForCompactions stops waiting: Pebble's picker
// can decline a level it scores (for example when the inputs are being
// compacted elsewhere or the score is below its own thresholds after
// compensation), and waiting forever would hang the benchmark.
const stuckPending = 2 * time.Second

// WaitForCompactions blocks until no flush or compaction is queued or
// running.
func (d *DB) WaitForCompactions() error {
	var pendingSince time.Time
	for {
		if d.closed.Load() {
			return errClosed
		}
		st := d.background(d.db.Metrics())
		if st.flushPending == 0 && st.runningFlushes == 0 && st.runningCompactions == 0 {
			if st.compactionPending == 0 {
				return nil
			}
			if pendingSince.IsZero() {
				pendingSince = time.Now()
			} else if time.Since(pendingSince) > stuckPending {
				return nil
			}
		} else {
			pendingSince = time.Time{}
		}
		time.Sleep(waitPoll)
	}
}

// backgroundState counts background work the way RocksDB's properties do.
type backgroundState struct {
	flushPending       int64 // immutable memtables waiting to flush
	runningFlushes     int64
	compactionPending  int64 // 1 when some level needs compaction
	runningCompactions int64
}

func (d *DB) background(m *pebble.Metrics) backgroundState {
	st := backgroundState{
		flushPending:       max(m.MemTable.Count-1, 0),
		runningFlushes:     m.Flush.NumInProgress,
		runningCompactions: m.Compact.NumInProgress,
	}
	if d.autoCompactions {
		for l := range m.Levels {
			if m.Levels[l].Score > 0 {
				st.compactionPending = 1
				break
			}
		}
	}
	return st
}
