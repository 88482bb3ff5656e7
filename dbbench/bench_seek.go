package dbbench

import (
	"bytes"
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// benchSeekRandom is db_bench's SeekRandom: per op one key draw (no
// DB-selection draw with one DB), Seek (SeekForPrev with
// --reverse_iterator), then --seek_nexts steps each counting key + value
// bytes. found = the iterator landed exactly on the target. With
// --max_scan_distance the iterator is bounded and so re-created per seek.
func benchSeekRandom(r *runner, t *thread) error {
	opts := r.iterOptions()
	var it engine.Iterator
	var err error
	bounded := r.cfg.maxScanDistance != 0
	if !bounded {
		if it, err = r.db.NewIter(opts); err != nil {
			return fmt.Errorf("iterator error: %v", err)
		}
	}
	defer func() {
		if it != nil {
			it.Close()
		}
	}()
	key := r.keys.NewBuf()
	bound := r.keys.NewBuf()
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	var read, found, nbytes int64
	var sum uint64
	reverse := r.cfg.reverseIterator
	nexts := int(r.cfg.seekNexts)
	lim := t.shared.readLimiter
	for !d.done(1) {
		pos := int64(t.rand.Next() % uint64(r.cfg.num))
		r.keys.Fill(key, pos)
		if r.cfg.seekMissingPrefix && len(key) > 8 {
			key[8] = '1'
		}
		if bounded {
			if reverse {
				r.keys.Fill(bound, max(0, pos-r.cfg.maxScanDistance))
				opts.LowerBound, opts.UpperBound = bound, nil
			} else {
				r.keys.Fill(bound, min(r.cfg.num, pos+r.cfg.maxScanDistance))
				opts.LowerBound, opts.UpperBound = nil, bound
			}
			if it != nil {
				it.Close()
			}
			if it, err = r.db.NewIter(opts); err != nil {
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
