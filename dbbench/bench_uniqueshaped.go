package dbbench

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/godbbench/godbbench/internal/cxxrand"
)

// uniqueShapeConfig are the shapes db_bench's DoWrite gives a unique-random
// fill (filluniquerandom, fillanddeleteuniquerandom): overwrites of
// recently written keys, or disposable entries deleted after persistent
// ones are written.
type uniqueShapeConfig struct {
	overwriteProbability float64
	overwriteWindow      uint32
	disposableDelayUs    uint64
	disposableBatch      uint64
	disposableValueSize  int32
	persistentBatch      uint64
	persistentValueSize  int32
}

// shaped reports whether a unique-random fill takes writeUniqueShaped's
// path, and refuses, in db_bench's words, the combinations DoWrite
// refuses for any write mode; rangeDeletes is whether the fill issues
// range deletions.
func (c *uniqueShapeConfig) shaped(mode writeMode, rangeDeletes bool) (bool, error) {
	p := min(c.overwriteProbability, 1)
	if p > 0 && mode == writeUniqueRandom && c.overwriteWindow == 0 {
		return false, errors.New("Overwrite_window_size must be  strictly greater than 0.")
	}
	if c.disposableBatch+c.persistentBatch > 0 {
		if c.disposableBatch == 0 {
			// db_bench takes the disposable index modulo this and dies of
			// SIGFPE on the first entry.
			return false, fmt.Errorf("--persistent_entries_batch_size=%d needs a --disposable_entries_batch_size above 0", c.persistentBatch)
		}
		if mode != writeUniqueRandom || rangeDeletes || p > 0 {
			return false, errors.New("Disposable/persistent deletes are not compatible with overwrites and DeleteRanges; and are only supported in filluniquerandom.")
		}
		if c.disposableValueSize < 0 || c.persistentValueSize < 0 {
			return false, errors.New("disposable_entries_value_size and persistent_entries_value_sizehave to be positive.")
		}
		return true, nil
	}
	return p > 0 && mode == writeUniqueRandom, nil
}

// disposableJob is a scheduled round of persistent writes and disposable
// deletes: not before atUs, for the disposable entries from key index
// first.
type disposableJob struct {
	atUs  uint64
	first uint64
}

// writeUniqueShaped is DoWrite's loop for a shaped unique-random fill,
// batches of --batch_size entries with one DB-selection draw each:
//
//   - --overwrite_probability p: each entry, with probability p (libstdc++'s
//     bernoulli_distribution over std::default_random_engine seeded with
//     the seed base), rewrites a key drawn by Random64(seed base) from the
//     last --overwrite_window_size keys written, else writes the next key of
//     the permutation; "Number of unique keys inserted" and "Number of
//     overwrites" are printed at the end.
//   - --disposable_entries_batch_size D, --persistent_entries_batch_size P:
//     the permutation is taken in groups of D+P; the D disposable entries
//     are written first, and once a group's disposables are all written and
//     --disposable_entries_delete_delay microseconds have passed, its P
//     persistent entries are written and then its D disposable keys deleted
//     (each a whole batch entry). Values are random strings of
//     --disposable_entries_value_size / --persistent_entries_value_size
//     bytes from Random(seed base). What runs when depends on the clock, as
//     in db_bench.
func (r *runner) writeUniqueShaped(t *thread, d *duration, keys *writeKeys) (int64, error) {
	c := &r.cfg.uniqueShape
	p := min(c.overwriteProbability, 1)
	seed := r.seedBase
	overwriteGen := newMinstdRand0(uint32(seed))
	reservoir := cxxrand.NewMT64(uint64(seed))
	var window []int64
	disposableRand := cxxrand.NewParkMiller(uint32(seed))
	var randomValue []byte
	group := c.disposableBatch + c.persistentBatch
	var queue []disposableJob
	var disposableIndex, jobIndex uint64
	var numOverwrites, numUnique, numWritten, numDeletes int64

	gen := newValueGen(&r.shape, r.valueData)
	batch := r.db.NewBatch()
	defer batch.Close()
	key := r.keys.NewBuf()
	entryOverhead := int64(r.keySize + r.cfg.userTimestampSize)
	rd := newRangeDeleter(r)
	var bytes int64
	fetch := func(i uint64) (int64, error) {
		if i >= uint64(len(keys.perm)) {
			return 0, fmt.Errorf("disposable entries: key index %d is past the %d keys of --num", i, len(keys.perm))
		}
		return int64(keys.perm[i]), nil
	}
	perBatch := r.entriesPerBatch
	for keys.num != 0 && !d.done(perBatch) {
		t.rand.Next() // DB selection draw
		batch.Reset()
		var batchBytes int64
		for j := int64(0); j < perBatch; j++ {
			var k int64
			disposable := true
			switch {
			case p > 0:
				if len(window) > 0 && overwriteGen.bernoulli(p) {
					numOverwrites++
					k = window[reservoir.Next()%uint64(len(window))]
				} else {
					numUnique++
					k = keys.next()
					if len(window) >= int(c.overwriteWindow) {
						window = window[1:]
					}
					window = append(window, k)
				}
			case len(queue) > 0 && queue[0].atUs < nowMicros():
				var err error
				if jobIndex < c.persistentBatch {
					k, err = fetch(queue[0].first + c.disposableBatch + jobIndex)
					jobIndex++
					disposable = false
				} else {
					k, err = fetch(queue[0].first + jobIndex - c.persistentBatch)
					jobIndex++
				}
				if err != nil {
					return bytes, err
				}
				deleting := disposable
				if jobIndex == group {
					queue = queue[1:]
					jobIndex = 0
				}
				if deleting {
					r.keys.Fill(key, k)
					batch.Delete(key)
					batchBytes += entryOverhead
					bytes += entryOverhead
					numDeletes++
					continue
				}
			default:
				var err error
				if k, err = fetch(disposableIndex); err != nil {
					return bytes, err
				}
				disposableIndex++
				if disposableIndex%c.disposableBatch == 0 {
					disposableIndex += c.persistentBatch
				}
			}
			r.keys.Fill(key, k)
			var val []byte
			if group > 0 {
				size := c.persistentValueSize
				if disposable {
					size = c.disposableValueSize
				}
				randomValue = randomValue[:0]
				for range size {
					randomValue = append(randomValue, byte(' '+disposableRand.Uniform(95)))
				}
				val = randomValue
				numUnique++
			} else {
				val = gen.Generate()
			}
			batch.Put(key, val)
			batchBytes += int64(len(val)) + entryOverhead
			bytes += int64(len(val)) + entryOverhead
			numWritten++
			if rd.c.due(numWritten) {
				rd.addTo(r, batch, keys.next())
			}
			if group > 0 && disposable && disposableIndex%group == 0 {
				queue = append(queue, disposableJob{atUs: nowMicros() + c.disposableDelayUs, first: disposableIndex - group})
			}
		}
		if lim := t.shared.writeLimiter; lim != nil {
			lim.request(batchBytes)
			t.stats.resetLastOpTime()
		}
		if err := r.db.Apply(batch, &r.wo); err != nil {
			return bytes, fmt.Errorf("put error: %v", err)
		}
		t.stats.finishedOps(perBatch, opWrite)
	}
	r.out.Flush()
	if p > 0 {
		r.outf("Number of unique keys inserted: %d.\nNumber of overwrites: %d\n", numUnique, numOverwrites)
	} else {
		r.outf("Number of unique keys inserted (disposable+persistent): %d.\nNumber of 'disposable entry delete': %d\n", numWritten, numDeletes)
	}
	rd.report(r)
	return bytes, nil
}

// nowMicros is db_bench's NowMicros: the wall clock in microseconds.
func nowMicros() uint64 { return uint64(time.Now().UnixMicro()) }

// minstdRand0 is std::minstd_rand0, libstdc++'s std::default_random_engine:
// x = x * 16807 mod (2^31 - 1), seeded with s mod (2^31 - 1), 0 taken as 1.
type minstdRand0 struct{ x uint64 }

func newMinstdRand0(seed uint32) *minstdRand0 {
	x := uint64(seed) % 2147483647
	if x == 0 {
		x = 1
	}
	return &minstdRand0{x: x}
}

func (g *minstdRand0) next() uint64 {
	g.x = g.x * 16807 % 2147483647
	return g.x
}

// bernoulli is libstdc++'s bernoulli_distribution(p) on the generator:
// generate_canonical<double, 53> from two draws, below p. The float64
// conversions keep each product rounded, as the C++ code's doubles are.
func (g *minstdRand0) bernoulli(p float64) bool {
	const span = 2147483646 // max - min + 1
	sum := float64(g.next() - 1)
	sum += float64(float64(g.next()-1) * span)
	u := sum / float64(float64(span)*span)
	if u >= 1 {
		u = math.Nextafter(1, 0)
	}
	return u < p
}
