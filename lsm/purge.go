package lsm

import "sync"

// Releasing read states off the read path.
//
// A Get or an iterator that began before a flush or compaction published a
// new read state can hold the last reference on the old one. Releasing it
// releases what only that state still held: the flushed memtables, and
// the old version's tables that no newer version lists, whose readers are
// closed and files deleted. That is milliseconds of unmapping and
// unlinking (a 64 MiB table on tmpfs frees 16,384 pages), which landed on
// whichever read let go last: readwhilewriting at 10M keys, one reader
// (--profile=cpu), spent 0.21 s of the reader's 9.6 s in releaseVersion.
// RocksDB's readers likewise leave obsolete files to a background purge.
//
// So a reader's last reference goes to the purger, which releases states
// on a goroutine of its own, started when the first state is queued and
// ending when the queue is empty. Publishers, which run in background work
// or with DB.mu held, release inline as before. WaitForCompactions waits
// for the queue (busy); Close drains it (close) before it closes the
// tables and gives up the directory lock, and from then on a reader's last
// reference (a Get racing Close, an iterator closed after the DB) is
// released inline, as every release was.
type purger struct {
	db      *DB
	mu      sync.Mutex
	queue   []*readState
	running bool // a goroutine is draining queue
	closed  bool // Close drained the queue: release inline
	wg      sync.WaitGroup
}

// release releases rs, whose last reference a reader dropped, on the
// purger's goroutine.
func (p *purger) release(rs *readState) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		rs.release()
		return
	}
	p.queue = append(p.queue, rs)
	if !p.running {
		p.running = true
		p.wg.Add(1)
		go p.drain()
	}
	p.mu.Unlock()
}

// drain releases queued states until the queue is empty, then wakes
// WaitForCompactions.
func (p *purger) drain() {
	defer p.wg.Done()
	var batch []*readState
	for {
		p.mu.Lock()
		if len(p.queue) == 0 {
			p.running = false
			p.mu.Unlock()
			break
		}
		batch, p.queue = p.queue, batch[:0]
		p.mu.Unlock()
		for i, rs := range batch {
			rs.release()
			batch[i] = nil
		}
	}
	p.db.mu.Lock()
	p.db.bgCond.Broadcast()
	p.db.mu.Unlock()
}

// busy reports whether states are queued or being released.
func (p *purger) busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running
}

// close waits for the queue to drain; later releases run inline. The
// caller must not hold DB.mu (drain takes it).
func (p *purger) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.wg.Wait()
}
