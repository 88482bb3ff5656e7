package dbbench

import (
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

func (r *runner) iterOptions() *engine.IterOptions {
	return &engine.IterOptions{KeysOnly: r.cfg.scanOmitValue}
}

// benchReadSequential is db_bench's ReadSequential (readseq, readtocache):
// a forward scan from the first key, min(reads, keys) entries. With
// --scan_omit_value the value is never loaded and only key bytes count.
func benchReadSequential(r *runner, t *thread) { r.readScan(t, false) }

// benchReadReverse is db_bench's ReadReverse: the same scan backwards.
func benchReadReverse(r *runner, t *thread) { r.readScan(t, true) }

func (r *runner) readScan(t *thread, reverse bool) {
	it, err := r.db.NewIter(r.iterOptions())
	if err != nil {
		t.fail("iterator error: %v", err)
	}
	defer it.Close()
	omitKey, omitValue := r.cfg.scanOmitKey, r.cfg.scanOmitValue
	fold := r.foldReads
	var i, bytes int64
	var sum uint64
	var valid bool
	if reverse {
		valid = it.Last()
	} else {
		valid = it.First()
	}
	lim := t.shared.readLimiter
	// With per-operation latencies, runs need the engine's timed scans.
	var timed engine.TimedScanner
	timedOK := !t.stats.detailed
	if !timedOK {
		timed, timedOK = it.(engine.TimedScanner)
	}
	if ss, ok := it.(engine.SizeScanner); ok && timedOK && valid && !reverse && !omitKey && !omitValue && !fold && lim == nil {
		i, bytes = r.scanSizes(t, ss, timed)
		valid = false
	}
	for ; i < r.reads && valid; i++ {
		if omitValue {
			if omitKey {
				bytes += int64(r.keySize)
			} else {
				k := it.Key()
				bytes += int64(len(k))
				if fold {
					sum += foldKey(k)
				}
			}
		} else {
			k := it.Key()
			v, err := it.Value()
			if err != nil {
				t.fail("iterator value error: %v", err)
			}
			bytes += int64(len(k) + len(v))
			if fold {
				sum += foldKV(k, v)
			}
		}
		t.stats.finishedOps(1, opRead)
		if lim != nil && i%1024 == 1023 {
			lim.request(1024)
		}
		if reverse {
			valid = it.Prev()
		} else {
			valid = it.Next()
		}
	}
	if err := it.Error(); err != nil {
		t.fail("iterator error: %v", err)
	}
	t.stats.reads += i
	t.stats.found += i
	t.stats.checksum += sum
	t.stats.addBytes(bytes)
}

// benchNextWithKey is ToplingDB's nextwithkey: a full forward scan that
// reads every key and never a value (byte count = key bytes).
func benchNextWithKey(r *runner, t *thread) {
	it, err := r.db.NewIter(&engine.IterOptions{KeysOnly: true})
	if err != nil {
		t.fail("iterator error: %v", err)
	}
	defer it.Close()
	var i, bytes int64
	var sum uint64
	for valid := it.First(); i < r.reads && valid; valid = it.Next() {
		k := it.Key()
		bytes += int64(len(k))
		if r.foldReads {
			sum += foldKey(k)
		}
		t.stats.finishedOps(1, opRead)
		i++
	}
	if err := it.Error(); err != nil {
		t.fail("iterator error: %v", err)
	}
	t.stats.reads += i
	t.stats.found += i
	t.stats.checksum += sum
	t.stats.addBytes(bytes)
}

// randomKey is db_bench's GetRandomKey: rand % num, or the exponential
// mapping of --read_random_exp_range.
func (r *runner) randomKey(t *thread) int64 {
	v := t.rand.Next()
	if r.cfg.readRandomExpRange == 0 {
		return int64(v % uint64(r.cfg.num))
	}
	return expRangeKey(v, r.cfg.readRandomExpRange, r.cfg.num)
}

// benchReadRandom is db_bench's ReadRandom (readrandom, readmissing,
// readrandomsmall): per op one DB-selection draw and one key draw.
func benchReadRandom(r *runner, t *thread) {
	if sg, tr, ok := r.sizeGetterFor(t); ok {
		r.readRandomSizes(t, sg, tr)
		return
	}
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	key := make([]byte, r.keySize)
	for i := range key {
		key[i] = '0'
	}
	sink := &getSink{key: key, fold: r.foldReads}
	take := sink.take
	var read, found, bytes, keyRand int64
	var numKeys int64
	lim := t.shared.readLimiter
	stride := r.cfg.multireadStride
	for !d.done(1) {
		t.rand.Next() // DB selection draw
		if r.entriesPerBatch > 1 && stride != 0 {
			numKeys++
			if numKeys == r.entriesPerBatch {
				numKeys = 0
				keyRand = r.randomKey(t)
				if keyRand+(r.entriesPerBatch-1)*stride >= r.cfg.num {
					keyRand = r.cfg.num - r.entriesPerBatch*stride
				}
			} else {
				keyRand += stride
			}
		} else {
			keyRand = r.randomKey(t)
		}
		r.keys.Fill(key, keyRand)
		read++
		ok, err := r.db.Get(key, take)
		if err != nil {
			t.fail("Get returned an error: %v", err)
		}
		if ok {
			found++
			bytes += int64(len(key) + sink.valueLen + r.cfg.userTimestampSize)
		}
		if lim != nil && read%256 == 255 {
			lim.request(256)
		}
		t.stats.finishedOps(1, opRead)
	}
	t.stats.reads += read
	t.stats.found += found
	t.stats.checksum += sink.checksum
	t.stats.addBytes(bytes)
	t.stats.addMessage(fmt.Sprintf("(%d of %d found)\n", found, read))
}

// benchMultiReadRandom is db_bench's MultiReadRandom: batch_size random keys
// per MultiGet (one DB-selection draw per batch).
func benchMultiReadRandom(r *runner, t *thread) {
	n := int(r.entriesPerBatch)
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = r.keys.NewBuf()
	}
	foundv := make([]bool, n)
	var bytes int64
	sink := &multiSink{keys: keys, lens: make([]int, n), fold: r.foldReads}
	take, takeCur := sink.takeAt, sink.takeCurrent
	mg, native := r.db.(engine.MultiGetter)
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	var read, found, multireads int64
	stride := r.cfg.multireadStride
	lim := t.shared.readLimiter
	for !d.done(r.entriesPerBatch) {
		t.rand.Next() // DB selection draw
		if stride != 0 {
			k := r.randomKey(t)
			if k+(r.entriesPerBatch-1)*stride >= r.cfg.num {
				k = r.cfg.num - r.entriesPerBatch*stride
			}
			for i := range keys {
				r.keys.Fill(keys[i], k)
				k += stride
			}
		} else {
			for i := range keys {
				r.keys.Fill(keys[i], r.randomKey(t))
			}
		}
		if native {
			if err := mg.MultiGet(keys, foundv, take); err != nil {
				t.fail("MultiGet returned an error: %v", err)
			}
		} else {
			for i := range keys {
				sink.cur = i
				ok, err := r.db.Get(keys[i], takeCur)
				if err != nil {
					t.fail("MultiGet returned an error: %v", err)
				}
				foundv[i] = ok
			}
		}
		read += r.entriesPerBatch
		multireads++
		for i := range keys {
			if foundv[i] {
				found++
				bytes += int64(len(keys[i]) + sink.lens[i] + r.cfg.userTimestampSize)
			}
		}
		if lim != nil && multireads%256 == 255 {
			lim.request(256)
		}
		t.stats.finishedOps(r.entriesPerBatch, opRead)
	}
	t.stats.reads += read
	t.stats.found += found
	t.stats.checksum += sink.checksum
	t.stats.addBytes(bytes)
	t.stats.addMessage(fmt.Sprintf("(%d of %d found)", found, read))
}

// benchIteratorCreation is db_bench's IteratorCreation (newiterator).
func benchIteratorCreation(r *runner, t *thread) {
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	for !d.done(1) {
		t.rand.Next() // DB selection draw
		it, err := r.db.NewIter(r.iterOptions())
		if err != nil {
			t.fail("iterator error: %v", err)
		}
		if err := it.Close(); err != nil {
			t.fail("iterator error: %v", err)
		}
		t.stats.finishedOps(1, opOthers)
	}
}

func benchIteratorCreationWhileWriting(r *runner, t *thread) {
	if t.tid > 0 {
		benchIteratorCreation(r, t)
	} else {
		r.bgWriter(t)
	}
}

func benchReadWhileWriting(r *runner, t *thread) {
	if t.tid > 0 {
		benchReadRandom(r, t)
	} else {
		r.bgWriter(t)
	}
}

func benchSeekRandomWhileWriting(r *runner, t *thread) {
	if t.tid > 0 {
		benchSeekRandom(r, t)
	} else {
		r.bgWriter(t)
	}
}

// multiSink receives MultiGet values by index; its methods are bound once.
type multiSink struct {
	keys     [][]byte
	lens     []int
	cur      int
	checksum uint64
	fold     bool
}

func (m *multiSink) takeAt(i int, v []byte) {
	m.lens[i] = len(v)
	if m.fold {
		m.checksum += foldKV(m.keys[i], v)
	}
}

func (m *multiSink) takeCurrent(v []byte) { m.takeAt(m.cur, v) }
