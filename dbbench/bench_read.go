package dbbench

import (
	"errors"
	"fmt"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/clock"
)

func (r *runner) iterOptions() *engine.IterOptions {
	return &engine.IterOptions{KeysOnly: r.cfg.scanOmitValue}
}

// benchReadSequential is db_bench's ReadSequential (readseq, readtocache):
// a forward scan from the first key, min(reads, keys) entries, of each
// database in turn. With --scan_omit_value the value is never loaded and
// only key bytes count.
func benchReadSequential(r *runner, t *thread) error { return r.readScans(t, false) }

// benchReadReverse is db_bench's ReadReverse: the same scans backwards.
func benchReadReverse(r *runner, t *thread) error { return r.readScans(t, true) }

// readScans scans every open database in order, as db_bench's
// ReadSequential and ReadReverse do with --num_multi_db.
func (r *runner) readScans(t *thread, reverse bool) error {
	return r.eachDB(func(db engine.DB, _ string, _ *columnFamilies) error {
		t.stats.intervalDB = db
		return r.readScan(t, db, reverse)
	})
}

// readScan is the scan of readseq and readreverse over db, in runs
// (runs.go) that also end on the read rate limiter's requests (one every
// 1,024 entries).
func (r *runner) readScan(t *thread, db engine.DB, reverse bool) error {
	it, err := db.NewIter(r.iterOptions())
	if err != nil {
		return fmt.Errorf("iterator error: %v", err)
	}
	defer it.Close()
	omitKey, omitValue := r.cfg.scanOmitKey, r.cfg.scanOmitValue
	scan := &engine.ScanOptions{Reverse: reverse, KeysOnly: omitValue}
	sink := scanSink{keysOnly: omitValue}
	if r.foldReads && !(omitKey && omitValue) {
		scan.Entry = sink.take
	}
	runs := engine.NewRuns(db)
	oneCall := runs.OneCall(reverse || scan.Entry != nil)
	var doneNs []int64
	if t.stats.detailed {
		doneNs = make([]int64, maxRun(oneCall, 0))
	}
	var valid bool
	if reverse {
		valid = it.Last()
	} else {
		valid = it.First()
	}
	lim := t.shared.readLimiter
	var i, bytes int64
	for stepFirst := false; valid && i < r.reads; stepFirst = true {
		limit := t.stats.runLimit(min(t.stats.runCap(oneCall, 0), r.reads-i))
		if lim != nil {
			limit = min(limit, opsUntil(i, 1024, 0))
		}
		var callStart int64
		if doneNs != nil {
			callStart = clock.Nanos()
		}
		n, b, more, err := runs.Scan(it, int(limit), stepFirst, scan, doneNs)
		if err != nil {
			return scanError(err)
		}
		i += int64(n)
		if omitKey && omitValue {
			bytes += int64(n * r.keySize)
		} else {
			bytes += b
		}
		if lim != nil && n > 0 && i%1024 == 0 {
			lim.request(1024)
		}
		switch {
		case n > 0 && doneNs != nil:
			t.stats.finishedTimedRun(callStart, doneNs[:n], opRead)
		case n > 0:
			t.stats.finishedOps(int64(n), opRead)
		}
		valid = more
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("iterator error: %v", err)
	}
	t.stats.reads += i
	t.stats.found += i
	t.stats.checksum += sink.checksum
	t.stats.addBytes(bytes)
	return nil
}

// scanError is a scan's error in db_bench's words, for a value's error
// and for the iterator's.
func scanError(err error) error {
	if ve := (*engine.ValueError)(nil); errors.As(err, &ve) {
		return fmt.Errorf("iterator value error: %v", ve.Err)
	}
	return fmt.Errorf("iterator error: %v", err)
}

// benchNextWithKey is ToplingDB's nextwithkey: a full forward scan that
// reads every key and never a value (byte count = key bytes).
func benchNextWithKey(r *runner, t *thread) error {
	it, err := r.db.NewIter(&engine.IterOptions{KeysOnly: true})
	if err != nil {
		return fmt.Errorf("iterator error: %v", err)
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
		return fmt.Errorf("iterator error: %v", err)
	}
	t.stats.reads += i
	t.stats.found += i
	t.stats.checksum += sum
	t.stats.addBytes(bytes)
	return nil
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
// readrandomsmall): per op one DB-selection draw and one key draw, in runs
// (runs.go) that also end on the read rate limiter's requests (after every
// 256th read but one, as db_bench makes them).
func benchReadRandom(r *runner, t *thread) error {
	if r.readOperands {
		return r.readRandomOperands(t)
	}
	if r.families != nil || r.multi != nil {
		return r.readRandomEach(t)
	}
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	ks := r.keySize
	runs := engine.NewRuns(r.db)
	sink := &getRunSink{keyLen: ks}
	var take func(int, []byte)
	if r.foldReads {
		take = sink.take
	}
	oneCall := runs.OneCall(take != nil)
	run := maxRun(oneCall, ks)
	keys := make([]byte, run*ks) // Fill writes every byte
	sink.keys = keys
	sizes := make([]int32, run)
	var doneNs []int64
	if t.stats.detailed {
		doneNs = make([]int64, run)
	}
	var read, found, bytes int64
	var picker readKeyPicker
	lim := t.shared.readLimiter
	entryOverhead := int64(ks + r.cfg.userTimestampSize)
	for {
		limit := d.runLimit(t.stats.runLimit(t.stats.runCap(oneCall, ks)))
		if lim != nil {
			limit = min(limit, opsUntil(read, 256, 255))
		}
		n, off := 0, 0
		for int64(n) < limit && !d.done(1) {
			_, k := picker.next(r, t) // one database
			r.keys.Fill(keys[off:off+ks], k)
			off += ks
			n++
		}
		if n == 0 {
			break
		}
		var callStart int64
		if doneNs != nil {
			callStart = clock.Nanos()
		}
		if err := runs.Get(keys[:n*ks], ks, sizes[:n], take, runTimes(doneNs, n)); err != nil {
			return fmt.Errorf("Get returned an error: %v", err)
		}
		for _, sz := range sizes[:n] {
			if sz >= 0 {
				found++
				bytes += entryOverhead + int64(sz)
			}
		}
		read += int64(n)
		if lim != nil && read%256 == 255 {
			lim.request(256)
		}
		if doneNs != nil {
			t.stats.finishedTimedRun(callStart, doneNs[:n], opRead)
		} else {
			t.stats.finishedOps(int64(n), opRead)
		}
		if int64(n) < limit {
			break // the reads or the duration ran out mid-run
		}
	}
	t.stats.endReadRandom(read, found, bytes, sink.checksum)
	return nil
}

// endReadRandom adds ReadRandom's counts and its message, "(F of R
// found)" and a newline, to the thread's stats.
func (s *Stats) endReadRandom(read, found, bytes int64, checksum uint64) {
	s.reads += read
	s.found += found
	s.checksum += checksum
	s.addBytes(bytes)
	s.addMessage(fmt.Sprintf("(%d of %d found)\n", found, read))
}

// readKeyPicker is ReadRandom's choice of the next database and key: one
// DB-selection draw, then a random key, or with --batch_size > 1 and
// --multiread_stride, runs of batch_size keys stride apart from a random
// start.
type readKeyPicker struct{ numKeys, keyRand int64 }

// next returns the number of the database to read and the key's number.
func (p *readKeyPicker) next(r *runner, t *thread) (int, int64) {
	id := r.selectSlot(t)
	stride := r.cfg.multireadStride
	if r.entriesPerBatch <= 1 || stride == 0 {
		p.keyRand = r.randomKey(t)
		return id, p.keyRand
	}
	p.numKeys++
	if p.numKeys == r.entriesPerBatch {
		p.numKeys = 0
		p.keyRand = r.randomKey(t)
		if p.keyRand+(r.entriesPerBatch-1)*stride >= r.cfg.num {
			p.keyRand = r.cfg.num - r.entriesPerBatch*stride
		}
	} else {
		p.keyRand += stride
	}
	return id, p.keyRand
}

// benchMultiReadRandom is db_bench's MultiReadRandom: batch_size random keys
// per MultiGet, in the database of one selection draw per batch.
func benchMultiReadRandom(r *runner, t *thread) error {
	n := int(r.entriesPerBatch)
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = r.keys.NewBuf()
	}
	foundv := make([]bool, n)
	var bytes int64
	sink := &multiSink{keys: keys, lens: make([]int, n), fold: r.foldReads}
	take := sink.takeAt
	runs := make([]*engine.Runs, r.dbCount())
	for i := range runs {
		db, _ := r.slot(i)
		runs[i] = engine.NewRuns(db)
	}
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	var read, found, multireads int64
	stride := r.cfg.multireadStride
	lim := t.shared.readLimiter
	for !d.done(r.entriesPerBatch) {
		id := r.selectSlot(t)
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
		if err := runs[id].MultiGet(keys, foundv, take); err != nil {
			return fmt.Errorf("MultiGet returned an error: %v", err)
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
	return nil
}

// benchIteratorCreation is db_bench's IteratorCreation (newiterator).
func benchIteratorCreation(r *runner, t *thread) error {
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	for !d.done(1) {
		db, _ := r.selectDB(t)
		it, err := db.NewIter(r.iterOptions())
		if err != nil {
			return fmt.Errorf("iterator error: %v", err)
		}
		if err := it.Close(); err != nil {
			return fmt.Errorf("iterator error: %v", err)
		}
		t.stats.finishedOps(1, opOthers)
	}
	return nil
}

func benchIteratorCreationWhileWriting(r *runner, t *thread) error {
	if t.tid > 0 {
		return benchIteratorCreation(r, t)
	}
	return r.bgWriter(t)
}

func benchReadWhileWriting(r *runner, t *thread) error {
	if t.tid > 0 {
		return benchReadRandom(r, t)
	}
	return r.bgWriter(t)
}

func benchSeekRandomWhileWriting(r *runner, t *thread) error {
	if t.tid > 0 {
		return benchSeekRandom(r, t)
	}
	return r.bgWriter(t)
}

// multiSink receives MultiGet values by index; its methods are bound once.
type multiSink struct {
	keys     [][]byte
	lens     []int
	checksum uint64
	fold     bool
}

func (m *multiSink) takeAt(i int, v []byte) {
	m.lens[i] = len(v)
	if m.fold {
		m.checksum += foldKV(m.keys[i], v)
	}
}
