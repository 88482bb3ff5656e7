package lsm

import (
	"fmt"
	"sync"

	"github.com/godbbench/godbbench/internal/invariants"
)

// In-order publication of commit groups.
//
// With enable_pipelined_write and allow_concurrent_memtable_write (both on
// at db_bench's defaults), a leader hands the writer queue to the next
// leader as soon as its group's WAL records are written, before it inserts
// the group into the memtable (commit.go): the next group's WAL write and
// memtable insert run while this one inserts, so two writers on two cores
// insert at once instead of taking turns. Groups may then finish their
// inserts out of order, but readers see a write only through visibleSeq,
// and visibleSeq moves to a group's last sequence only once every group
// before it is inserted too: a reader never sees a later write without an
// earlier one. A writer returns only after its group is published, so it
// reads its own write.
//
// Groups register in sequence order (under DB.mu, when the leader assigns
// their sequences) and the group that completes the run at the head of the
// queue publishes every group of it, waking their leaders. A group whose
// WAL write or insert failed is never published, nor is any group after
// it: they all return the first failure, which also stops writes
// (DB.mu.bgErr). A memtable switch waits until every registered group is
// published (waitPublished), so no insert is in flight into a memtable that
// becomes immutable; Close waits too.
//
// Cost: one uncontended mutex round trip per group, and a wake for a leader
// that finished before a group ahead of it (writer_wake.go: an atomic swap,
// and a channel send only if the leader had parked).

// publisher is the queue of registered, unpublished commit groups, each
// represented by its leader.
type publisher struct {
	mu      sync.Mutex
	leaders []*writer // registered groups in sequence order, from head
	head    int
	// err is the first failure of a group; no group is published after it.
	err error
	// pending counts registered groups not yet published; waitPublished
	// waits on it.
	pending sync.WaitGroup
	// wakes counts the leaders woken when their groups were published
	// (writer_wake.go).
	wakes wakeCounts
}

// registerGroup queues w's group, whose sequences end at w.grp.last, for
// publication (DB.mu held; groups register in sequence order).
func (db *DB) registerGroup(w *writer) {
	p := &db.pub
	p.pending.Add(1)
	p.mu.Lock()
	if p.head > 0 && p.head == len(p.leaders) {
		p.leaders, p.head = p.leaders[:0], 0
	}
	p.leaders = append(p.leaders, w)
	p.mu.Unlock()
}

// publishGroup records that w's group is inserted (err nil) or failed, and
// returns once the group is published or known failed: the result for
// every writer of the group.
func (db *DB) publishGroup(w *writer, err error) error {
	p := &db.pub
	g := &w.grp
	p.mu.Lock()
	g.done, g.err = true, err
	for p.head < len(p.leaders) {
		h := p.leaders[p.head]
		hg := &h.grp
		if !hg.done {
			break
		}
		p.leaders[p.head] = nil
		p.head++
		if p.err == nil && hg.err != nil {
			p.err = hg.err
		}
		if p.err != nil {
			if hg.err == nil {
				hg.err = fmt.Errorf("lsm: write failed after an earlier write failed: %w", p.err)
			}
		} else {
			if invariants.Enabled {
				checkPublish(db.visibleSeq.Load(), hg.last)
			}
			db.visibleSeq.Store(hg.last)
		}
		hg.published = true
		if h != w {
			p.wakes.add(h.signal())
		}
		p.pending.Done()
	}
	published := g.published
	// Poll only while the groups in flight leave this leader a P.
	spin := len(p.leaders)-p.head <= db.maxProcs()
	p.mu.Unlock()
	if !published {
		w.await(spin)
	}
	err = g.err
	g.done, g.published, g.err = false, false, nil
	return err
}

// waitPublished waits until every registered commit group is published
// (DB.mu held and released while waiting). Only a leader registers groups,
// so a leader that waits here knows none registers meanwhile. It returns
// the failure that stopped publication, if any.
func (db *DB) waitPublished() error {
	if db.visibleSeq.Load() == db.mu.lastSeq {
		return nil
	}
	db.mu.Unlock()
	db.pub.pending.Wait()
	db.mu.Lock()
	db.pub.mu.Lock()
	err := db.pub.err
	db.pub.mu.Unlock()
	if err != nil {
		return fmt.Errorf("lsm: writes stopped after a background error: %w", err)
	}
	return nil
}
