package lsm

import (
	"fmt"
	"sync"
)

// splitInsertMin is the record count from which a lone batch (a commit group
// of one) is inserted into the memtable by two goroutines, each taking half
// of its records.
//
// Why: db_bench's fillrandom with --batch_size=1000 and one thread commits
// one 1000-record batch per group, so the group-level parallel insert never
// applies and one core does all memtable work. A random insert into a
// 600K-entry skiplist costs 2-5 us (about 20 levels of cache-missing
// comparisons); splitting costs one extra decode pass over half the records
// (~10 ns each) plus one goroutine start (~1 us per batch), under 0.3% of
// the ~3 ms the batch takes, and lets the memtable work use a second core.
// Below 256 records the goroutine start is no longer negligible and the
// batch is inserted serially.
const splitInsertMin = 256

// splitInsert is the state of one batch inserted from two goroutines. It
// lives in the leader's commitGroup, so a split allocates nothing and the
// next leader, to whom the queue may pass before this group inserts
// (publish.go), splits its own batch at the same time.
type splitInsert struct {
	mem  *memTable
	tail batchReader
	err  error
	wg   sync.WaitGroup
}

// canSplit reports whether b is worth inserting from two goroutines.
func (db *DB) canSplit(b *Batch) bool {
	return db.opts.AllowConcurrentMemtableWrite && b.Count() >= splitInsertMin && db.maxProcs() > 1
}

// insertSplit adds b's records to mem with s: the second half from a new
// goroutine, the first half from the caller. Both halves keep their own
// sequence numbers, so the order of the two inserts does not matter.
func (s *splitInsert) insertSplit(mem *memTable, b *Batch) error {
	head, err := newBatchReader(b.Repr())
	if err != nil {
		return err
	}
	half := head.count / 2
	tail := head
	for range half {
		if _, _, _, _, ok, err := tail.next(); err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("%w: batch ended early", ErrCorruptBatch)
			}
			return err
		}
	}
	head.data = head.data[:len(head.data)-len(tail.data)]
	head.count = half
	s.mem, s.tail, s.err = mem, tail, nil
	s.wg.Add(1)
	go s.insertTail()
	err = insertRecords(mem, &head)
	s.wg.Wait()
	if err == nil {
		err = s.err
	}
	s.mem = nil
	return err
}

// insertTail inserts the second half of a split batch.
func (s *splitInsert) insertTail() {
	s.err = insertRecords(s.mem, &s.tail)
	s.wg.Done()
}
