package lsm

import "github.com/godbbench/godbbench/internal/clock"

// Counted scans: db_bench's readseq counts entries and their bytes, and
// through a loop of steps pays, per key, the caller's interface calls to
// Next, Key and Valid. ScanCount runs such a loop inside the iterator
// with no call through an interface per key, and over a batch of keys
// alone (iter_solo.go) steps from key to key in a tight loop: the keys of
// such a batch are each a new key, visible to every read, so a step there
// is the batch's record decode and the bound check.

// ScanCount counts up to n keys forward from the current one, or
// backward with reverse (from the one after it in that direction when
// stepFirst), summing the lengths of their keys and, unless the iterator
// is KeysOnly, of their values, which it loads; it stops on the n-th key
// (more true; the iterator stays there) or when the iterator becomes
// invalid (more false; Error says whether an error ended it). The
// iterator moves exactly as a loop of Next (Prev with reverse) calls
// would move it. A value that cannot be loaded ends the count, before
// that key, with its error as valueErr (the iterator then fails with it).
//
// With doneNs (at least n long) the count is timed as engine.Runner's
// runs are: doneNs[i] is set to the nanoseconds (internal/clock) from the
// call's start to the end of key i. A timed or reverse count steps key
// by key.
func (it *dbIter) ScanCount(n int, stepFirst, reverse bool, doneNs []int64) (count int, bytes int64, more bool, valueErr error) {
	if doneNs == nil {
		return it.scanCount(n, stepFirst, reverse, nil, nil)
	}
	sw := clock.StartStopwatch()
	count, bytes, more, valueErr = it.scanCount(n, stepFirst, reverse, doneNs, &sw)
	sw.ToNanos(doneNs[:count])
	return count, bytes, more, valueErr
}

// scanCount is ScanCount with doneNs in sw's laps (sw is nil when
// doneNs is).
func (it *dbIter) scanCount(n int, stepFirst, reverse bool, doneNs []int64, sw *clock.Stopwatch) (count int, bytes int64, more bool, valueErr error) {
	valid := it.valid
	if stepFirst && valid {
		valid = it.step(reverse)
	}
	for valid && count < n {
		if !it.keysOnly {
			v, err := it.Value()
			if err != nil {
				return count, bytes, false, err
			}
			bytes += int64(len(v))
		}
		bytes += int64(len(it.key))
		if doneNs != nil {
			doneNs[count] = sw.Lap()
		}
		count++
		if count == n {
			return count, bytes, true, nil
		}
		if it.keysOnly && doneNs == nil && !reverse {
			k, kb := it.soloRun(n - count)
			count, bytes = count+k, bytes+kb
			if !it.valid {
				break
			}
			if count == n {
				return count, bytes, true, nil
			}
		}
		valid = it.step(reverse)
	}
	return count, bytes, false, nil
}

// step is Prev with reverse, else Next.
func (it *dbIter) step(reverse bool) bool {
	if reverse {
		return it.Prev()
	}
	return it.Next()
}

// soloRun steps over up to max keys after the current one while they
// come from a batch of keys alone that soloNext would step through
// (batchNext's first case), and returns how many it stepped onto and the
// sum of their lengths; the iterator stays on the last of them. A key at
// or above the upper bound is not counted: the iterator becomes invalid
// there, as Next would leave it.
func (it *dbIter) soloRun(max int) (n int, keyBytes int64) {
	if !it.forward || it.merged || len(it.m.heap) != 1 || len(it.dels) != 0 {
		return 0, 0
	}
	e := &it.m.heap[0]
	t := soloBatch(e.it)
	if t == nil || t.bare == 0 || t.trailer != zeroSet {
		return 0, 0
	}
	for n < max && t.left > 0 {
		t.decode()
		if it.aboveUpper(t.key) {
			e.key = t.key
			it.findForward(true)
			return n, keyBytes
		}
		n++
		keyBytes += int64(len(t.key))
	}
	if n > 0 {
		e.key, it.key = t.key, t.key
	}
	return n, keyBytes
}
