package dbbench

import (
	"bytes"
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// benchSeekRandom is db_bench's SeekRandom: per op one key draw (then a
// DB-selection draw with several databases only), a new iterator, Seek (SeekForPrev with
// --reverse_iterator), then --seek_nexts steps each counting key + value
// bytes. found = the iterator landed exactly on the target. As in
// db_bench, every seek makes its own iterator, so it sees the writes made
// before it (the *whilewriting variants) and its cost includes the
// iterator's creation; with --use_tailing_iterator one tailing iterator,
// made before the first seek, serves them all. --max_scan_distance bounds
// each seek's iterator; --auto_prefix_mode with a --prefix_size bounds it
// at the next prefix (forward only), as db_bench does.
func benchSeekRandom(r *runner, t *thread) error {
	// db_bench reports its seeks against db_.db, not the one sought in.
	t.stats.pinIntervalDB(r.singleDB())
	opts := r.iterOptions()
	var it engine.Iterator
	var err error
	tailing := r.cfg.tailingIterator
	// tailingIters are the tailing iterators, one per database.
	var tailingIters []engine.Iterator
	defer func() {
		if it != nil && !tailing {
			it.Close()
		}
		for _, ti := range tailingIters {
			ti.Close()
		}
	}()
	if tailing {
		opts.Tailing = true
		for i := 0; i < r.dbCount(); i++ {
			db, _ := r.slot(i)
			if it, err = db.NewIter(opts); err != nil {
				return fmt.Errorf("iterator error: %v", err)
			}
			tailingIters = append(tailingIters, it)
		}
	}
	key := r.keys.NewBuf()
	bound := r.keys.NewBuf()
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	var read, found, nbytes int64
	var sum uint64
	reverse := r.cfg.reverseIterator
	nexts := int(r.cfg.seekNexts)
	lim := t.shared.readLimiter
	prefixBound := r.opts.Read.AutoPrefixMode && r.cfg.prefixSize > 0 && !reverse
	for !d.done(1) {
		pos := int64(t.rand.Next() % uint64(r.cfg.num))
		r.keys.Fill(key, pos)
		if r.cfg.seekMissingPrefix && len(key) > 8 {
			key[8] = '1'
		}
		switch {
		case r.cfg.maxScanDistance != 0 && reverse:
			r.keys.Fill(bound, max(0, pos-r.cfg.maxScanDistance))
			opts.LowerBound = bound
		case r.cfg.maxScanDistance != 0:
			r.keys.Fill(bound, min(r.cfg.num, pos+r.cfg.maxScanDistance))
			opts.UpperBound = bound
		case prefixBound:
			// The next prefix: the key's prefix with its last byte
			// incremented (wrapping, as db_bench's char does).
			n := copy(bound, key[:r.cfg.prefixSize])
			bound[n-1]++
			opts.UpperBound = bound[:n]
		}
		// With several databases db_bench draws the one to seek in after
		// the key; with one it draws nothing.
		id := 0
		if r.multi != nil {
			id = r.selectSlot(t)
		}
		if tailing {
			it = tailingIters[id]
		} else {
			if it != nil {
				it.Close()
			}
			db, _ := r.slot(id)
			if it, err = db.NewIter(opts); err != nil {
				it = nil
				return fmt.Errorf("iterator error: %v", err)
			}
		}
		var valid bool
		if reverse {
			valid = it.SeekLE(key)
		} else {
			valid = it.SeekGE(key)
		}
		read++
		if valid && bytes.Equal(it.Key(), key) {
			found++
		}
		for j := 0; j < nexts && valid; j++ {
			k := it.Key()
			v, err := it.Value()
			if err != nil {
				return fmt.Errorf("iterator value error: %v", err)
			}
			nbytes += int64(len(k) + len(v))
			if r.foldReads {
				sum += foldKV(k, v)
			}
			if reverse {
				valid = it.Prev()
			} else {
				valid = it.Next()
			}
		}
		if err := it.Error(); err != nil {
			return fmt.Errorf("iterator error: %v", err)
		}
		if lim != nil && read%256 == 255 {
			lim.request(256)
		}
		t.stats.finishedOps(1, opSeek)
	}
	t.stats.reads += read
	t.stats.found += found
	t.stats.checksum += sum
	t.stats.addBytes(nbytes)
	t.stats.addMessage(fmt.Sprintf("(%d of %d found)\n", found, read))
	return nil
}
