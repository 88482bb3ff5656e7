package dbbench

import (
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// mergeKeyGen is the key generator of mergerandom and
// readrandommergerandom: db_bench draws their keys as rand % merge_keys_
// and formats them with merge_keys_ as the key count (GenerateKeyFromInt's
// num_keys, which matters only for --keys_per_prefix). merge_keys_ is
// --merge_keys, or --num when that is negative.
func (r *runner) mergeKeyGen() (KeyGen, int64) {
	n := r.cfg.mergeKeys
	if n < 0 {
		n = r.cfg.num
	}
	g := r.keys
	g.num = n
	return g, n
}

// benchMergeRandom is db_bench's MergeRandom: readwrites Merges of a
// generated value on random keys (one DB-selection draw and one key draw
// per op), bytes counting key and value. With column families each Merge
// goes to the family of its key's number, as db_bench's does.
func benchMergeRandom(r *runner, t *thread) error {
	gen := newValueGen(&r.shape, r.valueData)
	keys, n := r.mergeKeyGen()
	key := keys.NewBuf()
	var bytes int64
	d := r.newDuration(int64(r.cfg.duration), r.readwrites)
	for !d.done(1) {
		db, fams := r.selectDB(t)
		k := int64(t.rand.Next() % uint64(n))
		keys.Fill(key, k)
		val := gen.Generate()
		if fams != nil {
			db = fams.family(k)
		}
		if err := db.Merge(key, val, &r.wo); err != nil {
			return fmt.Errorf("merge error: %v", err)
		}
		bytes += int64(len(key) + len(val))
		t.stats.finishedOps(1, opMerge)
	}
	t.stats.addBytes(bytes)
	t.stats.addMessage(fmt.Sprintf("( updates:%d)", r.readwrites))
	return nil
}

// benchReadRandomMergeRandom is db_bench's ReadRandomMergeRandom: per op a
// DB-selection draw, a key draw (rand % merge_keys_) and a draw deciding a
// Merge (rand % 100 < --mergereadpercent) or else a Get. A failed Get is
// reported and the run goes on, as in db_bench; no bytes are counted.
func benchReadRandomMergeRandom(r *runner, t *thread) error {
	gen := newValueGen(&r.shape, r.valueData)
	keys, n := r.mergeKeyGen()
	key := keys.NewBuf()
	sink := &getSink{key: key, fold: r.foldReads}
	take := sink.take
	var hits, gets, merges int64
	maxLength := 0
	d := r.newDuration(int64(r.cfg.duration), r.readwrites)
	for !d.done(1) {
		db, _ := r.selectDB(t)
		keys.Fill(key, int64(t.rand.Next()%uint64(n)))
		if int32(t.rand.Next()%100) < r.cfg.mergeReadPercent {
			if err := db.Merge(key, gen.Generate(), &r.wo); err != nil {
				return fmt.Errorf("merge error: %v", err)
			}
			merges++
			t.stats.finishedOps(1, opMerge)
			continue
		}
		ok, err := db.Get(key, take)
		if err != nil {
			r.errf("get error: %v\n", err)
		} else if ok {
			hits++
			maxLength = max(maxLength, sink.valueLen)
		}
		gets++
		t.stats.finishedOps(1, opRead)
	}
	t.stats.reads += gets
	t.stats.found += hits
	t.stats.checksum += sink.checksum
	t.stats.addMessage(fmt.Sprintf("(reads:%d merges:%d total:%d hits:%d maxlength:%d)",
		gets, merges, r.readwrites, hits, maxLength))
	return nil
}

func benchReadWhileMerging(r *runner, t *thread) error {
	if t.tid > 0 {
		return benchReadRandom(r, t)
	}
	return r.bgWrites(t, true)
}

func benchSeekRandomWhileMerging(r *runner, t *thread) error {
	if t.tid > 0 {
		return benchSeekRandom(r, t)
	}
	return r.bgWrites(t, true)
}

// benchMergeWithoutOperator is readwhilemerging and seekrandomwhilemerging
// without --merge_operator: db_bench's background merger (thread 0) stops
// the run with the status of its first Merge; the readers do nothing.
func benchMergeWithoutOperator(r *runner, t *thread) error {
	if t.tid == 0 {
		t.stats.exclude = true
		return fmt.Errorf("put or merge error: %v", engine.ErrNoMergeOperator)
	}
	return nil
}

// readRandomOperands is db_bench's ReadRandom with read_operands_ set
// (readrandomoperands, and every ReadRandom after it in the same run):
// GetMergeOperands instead of Get, one call per key, counting the key and
// every operand's bytes of each key found.
func (r *runner) readRandomOperands(t *thread) error {
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	key := r.keys.NewBuf()
	sink := &operandSink{key: key, fold: r.foldReads}
	take := sink.take
	var read, found, bytes int64
	var picker readKeyPicker
	lim := t.shared.readLimiter
	for !d.done(1) {
		id, k := picker.next(r, t)
		db, _ := r.slot(id)
		r.keys.Fill(key, k)
		read++
		sink.bytes = 0
		ok, err := db.GetMergeOperands(key, take)
		if err != nil {
			return fmt.Errorf("Get returned an error: %v", err)
		}
		if ok {
			found++
			bytes += int64(len(key)+r.cfg.userTimestampSize) + sink.bytes
		}
		if lim != nil && read%256 == 255 {
			lim.request(256)
		}
		t.stats.finishedOps(1, opRead)
	}
	t.stats.endReadRandom(read, found, bytes, sink.checksum)
	return nil
}

// operandSink receives one key's merge operands; its take method is bound
// once.
type operandSink struct {
	key      []byte
	bytes    int64
	checksum uint64
	fold     bool
}

func (s *operandSink) take(v []byte) {
	s.bytes += int64(len(v))
	if s.fold {
		s.checksum += foldKV(s.key, v)
	}
}
