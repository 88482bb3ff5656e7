package dbbench

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// timeseriesConfig is timeseries' workload (db_bench's --key_id_range,
// --time_range, --expire_style and --num_deletion_threads).
type timeseriesConfig struct {
	keyIDRange      int32
	timeRange       uint64
	expireStyle     string
	deletionThreads int32
}

// setupTimeSeries refuses what db_bench's TimeSeries cannot run here: keys
// shorter than the 8-byte id (db_bench writes outside the key), a key id
// range it divides by, and the compaction-filter expiry, which needs an
// engine feature none of the engines exposes.
func setupTimeSeries(r *runner, s *benchSpec) error {
	ts := &r.cfg.timeseries
	var err error
	switch {
	case r.severalDBs() && s.threads > 1:
		// The writer spreads over the databases (SelectDB); db_bench's
		// readers assert a single one and abort.
		err = fmt.Errorf("timeseries: Assertion `db_.db != nullptr' failed: its readers work on a single database; --num_multi_db=%d opens several", r.cfg.numMultiDB)
	case r.keySize < 8:
		err = fmt.Errorf("timeseries: --key_size=%d is shorter than the 8-byte key id", r.keySize)
	case ts.keyIDRange <= 0:
		err = fmt.Errorf("timeseries: --key_id_range=%d leaves no key ids (db_bench divides by it)", ts.keyIDRange)
	case ts.expireStyle == "compaction_filter":
		err = fmt.Errorf("timeseries: --expire_style=compaction_filter needs a compaction filter, which engine %s does not offer", r.cfg.engine)
	}
	if err != nil {
		r.out.Flush()
		r.errf("%s\n", err)
		return errExit{err.Error()}
	}
	r.timestamps.Store(0)
	return nil
}

// benchTimeSeries is db_bench's TimeSeries: thread 0 writes --writes
// entries (or for --duration), each key the id rand mod --key_id_range
// laid out as usual with bytes 8 to 15 replaced by the next timestamp
// (big-endian); its stats are reported on their own line, "timeseries
// write", and left out of the merged result. The other threads repeat,
// until the writer is done, a Seek to a random id with the last 8 key
// bytes zero, then read (or, with --expire_style=delete on the first
// --num_deletion_threads readers, delete while expired) the entries that
// start with that whole key, each one operation.
func benchTimeSeries(r *runner, t *thread) error {
	// db_bench reports every thread's operations against db_.db, not the
	// database the writer selected.
	t.stats.pinIntervalDB(r.singleDB())
	if t.tid > 0 {
		ts := &r.cfg.timeseries
		deletes := ts.expireStyle == "delete" && int32(t.tid) <= ts.deletionThreads
		return r.timeSeriesRead(t, deletes)
	}
	if err := r.timeSeriesWrite(t); err != nil {
		return err
	}
	t.stats.stop()
	t.stats.report(r.out, "timeseries write", r.cfg.histogram)
	r.printFileOperations()
	return nil
}

func (r *runner) timeSeriesWrite(t *thread) error {
	t.stats.exclude = true
	gen := newValueGen(&r.shape, r.valueData)
	var limiter *rateLimiter
	if r.cfg.writeRateLimit > 0 {
		limiter = newRateLimiter(float64(r.cfg.writeRateLimit))
	}
	key := r.keys.NewBuf()
	stamp := key[8:min(len(key), 16)]
	idRange := uint64(r.cfg.timeseries.keyIDRange)
	d := r.newDuration(int64(r.cfg.duration), r.writes)
	for !d.done(1) {
		db, _ := r.selectDB(t)
		r.keys.Fill(key, int64(t.rand.Next()%idRange))
		putLowBytes(stamp, r.timestamps.Add(1)-1)
		val := gen.Generate()
		if err := db.Put(key, val, &r.wo); err != nil {
			return fmt.Errorf("put error: %v", err)
		}
		t.stats.finishedOps(1, opWrite)
		t.stats.addBytes(int64(len(key) + len(val)))
		if limiter != nil {
			limiter.request(int64(len(key) + len(val)))
		}
	}
	return nil
}

// putLowBytes writes the len(b) low-order bytes of v into b, big-endian.
func putLowBytes(b []byte, v uint64) {
	var full [8]byte
	binary.BigEndian.PutUint64(full[:], v)
	copy(b, full[8-len(b):])
}

func (r *runner) timeSeriesRead(t *thread, deletes bool) error {
	key := r.keys.NewBuf()
	idRange := uint64(r.cfg.timeseries.keyIDRange)
	var read, found, nbytes int64
	var sum uint64
	lim := t.shared.readLimiter
	for t.shared.numDone.Load() < 1 {
		// A new iterator per seek, so that it sees the writer's latest
		// entries (db_bench without --use_tailing_iterator).
		it, err := r.db.NewIter(&engine.IterOptions{})
		if err != nil {
			return fmt.Errorf("iterator error: %v", err)
		}
		r.keys.Fill(key, int64(t.rand.Next()%idRange))
		clear(key[len(key)-8:])
		read++
		keyFound := false
		for valid := it.SeekGE(key); valid && bytes.HasPrefix(it.Key(), key); valid = it.Next() {
			keyFound = true
			k := it.Key()
			if deletes {
				nbytes += int64(len(k))
				if !r.timestampExpired(k) {
					break
				}
				t.stats.finishedOps(1, opDelete)
				if err := r.db.Delete(k, &r.wo); err != nil {
					it.Close()
					return fmt.Errorf("delete error: %v", err)
				}
				continue
			}
			v, err := it.Value()
			if err != nil {
				it.Close()
				return fmt.Errorf("iterator value error: %v", err)
			}
			nbytes += int64(len(k) + len(v))
			if r.foldReads {
				sum += foldKV(k, v)
			}
			t.stats.finishedOps(1, opRead)
		}
		err = it.Error()
		it.Close()
		if err != nil {
			return fmt.Errorf("iterator error: %v", err)
		}
		if keyFound {
			found++
		}
		if lim != nil {
			lim.request(1)
		}
	}
	t.stats.reads += read
	t.stats.found += found
	t.stats.checksum += sum
	t.stats.addBytes(nbytes)
	t.stats.addMessage(fmt.Sprintf("(%d of %d found)", found, read))
	return nil
}

// timestampExpired is db_bench's KeyExpired: the key's bytes 8 to 15 as a
// big-endian timestamp more than --time_range behind the writer's.
func (r *runner) timestampExpired(key []byte) bool {
	var stamp [8]byte
	n := min(len(key), 16) - 8
	copy(stamp[8-n:], key[8:8+n]) // the low bytes the writer wrote
	return r.timestamps.Load()-binary.BigEndian.Uint64(stamp[:]) > r.cfg.timeseries.timeRange
}
