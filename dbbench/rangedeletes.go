package dbbench

import (
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// rangeDeleteConfig are db_bench's range-deletion flags, which the fill
// benchmarks (DoWrite) and the background writer of the *whilewriting
// and *whilemerging benchmarks (BGWriter) read:
//
//   - after each write, when --writes_per_range_tombstone E > 0, the count
//     of writes w > --writes_before_delete_range B, (w-B)/E <=
//     --max_num_range_tombstones M and (w-B) % E == 0, one range deletion
//     of --range_tombstone_width W keys from a key number k: [key(k),
//     key(k+W)), or with --expand_range_tombstones W point deletions of
//     key(k) .. key(k+W-1);
//   - k is the fill's next key number (a draw of its key generator, whose
//     key count DoWrite widens to --num + M for every fill, range
//     deletions or not), or rand % --num in the background writer;
//   - a fill adds the deletion to the batch of the write that triggered
//     it; the background writer writes it alone and counts it as one more
//     write op; both print "Number of range deletions: N" at their end
//     when N > 0.
type rangeDeleteConfig struct {
	before, every, width, max int64
	expand                    bool
}

// rangeDeleter issues one thread's range deletions.
type rangeDeleter struct {
	c          *rangeDeleteConfig
	begin, end []byte
	count      int64
}

func newRangeDeleter(r *runner) *rangeDeleter {
	return &rangeDeleter{c: &r.cfg.rangeDeletes, begin: r.keys.NewBuf(), end: r.keys.NewBuf()}
}

// on reports whether range deletions are asked for.
func (c *rangeDeleteConfig) on() bool { return c.every > 0 }

// due reports whether the written-th write is followed by a range
// deletion.
func (c *rangeDeleteConfig) due(written int64) bool {
	if c.every <= 0 || written <= c.before {
		return false
	}
	n := written - c.before
	return n/c.every <= c.max && n%c.every == 0
}

// addTo adds the range deletion from key number k to batch.
func (d *rangeDeleter) addTo(r *runner, batch engine.Batch, k int64) {
	d.count++
	if d.c.expand {
		for off := int64(0); off < d.c.width; off++ {
			r.keys.Fill(d.begin, k+off)
			batch.Delete(d.begin)
		}
		return
	}
	r.keys.Fill(d.begin, k)
	r.keys.Fill(d.end, k+d.c.width)
	batch.DeleteRange(d.begin, d.end)
}

// write writes the range deletion from key number k on its own into db,
// with db_bench's error words.
func (d *rangeDeleter) write(r *runner, db engine.DB, k int64) error {
	d.count++
	if d.c.expand {
		for off := int64(0); off < d.c.width; off++ {
			r.keys.Fill(d.begin, k+off)
			if err := db.Delete(d.begin, &r.wo); err != nil {
				return fmt.Errorf("delete error: %v", err)
			}
		}
		return nil
	}
	r.keys.Fill(d.begin, k)
	r.keys.Fill(d.end, k+d.c.width)
	if err := db.DeleteRange(d.begin, d.end, &r.wo); err != nil {
		return fmt.Errorf("deleterange error: %v", err)
	}
	return nil
}

// report prints db_bench's count line when the thread issued any.
func (d *rangeDeleter) report(r *runner) {
	if d.count > 0 {
		r.out.Flush()
		r.outf("Number of range deletions: %d\n", d.count)
	}
}
