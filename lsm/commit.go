package lsm

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit. Writers queue under DB.mu; the writer at the head is the
// leader. It makes room (switching the memtable, stalling), takes the
// writers behind it as its group (up to maxGroupBytes), assigns their
// sequence numbers, releases the mutex, appends their records to the WAL
// with one write (and one fsync if any asked for it), and then inserts the
// group into the memtable, with up to GOMAXPROCS-1 followers helping
// (insert_group.go). A group of walOverlapBytes or more writes its WAL
// from a second goroutine while it inserts (wal_overlap.go).
// With enable_pipelined_write and allow_concurrent_memtable_write (the
// defaults) every group hands the queue to the next leader right after its
// WAL write, so the next group's WAL write and insert overlap its insert;
// groups publish in sequence order (publish.go). Otherwise the leader
// keeps the queue until its group is inserted. Everything a group needs
// while it inserts lives in its leader's writer (commitGroup), so groups
// handed off early share nothing but the memtable and the publisher.
// Finally the leader publishes the group's last sequence and wakes its
// followers.
//
// Cost per uncontended write: two mutex round trips on DB.mu and one on
// the publisher's, one write(2) (about 1-2 us for a 100-byte record into
// the page cache) and the memtable insert.
//
// Why the early hand-off: db_bench fillrandom --threads=2 at the defaults
// ran at 225K writes/s on two idle cores against 380K/s for one thread,
// using 1.15 cores: with two writers every group held one batch, and the
// second writer waited for the leader's insert (a few microseconds of
// cache misses in the skiplist) before it could even write its WAL record.

// maxGroupBytes bounds a commit group, as RocksDB's 1 MiB max_write_batch_group_size_bytes.
const maxGroupBytes = 1 << 20

type writerState uint8

const (
	stateWaiting writerState = iota
	stateLeader
	stateInsert
	stateDone
)

// writer is one queued write. Writers are pooled, so a write allocates
// nothing in steady state.
type writer struct {
	batch *Batch
	sync  bool
	noWAL bool
	flush bool // a memtable switch request from Flush, carries no batch
	state writerState
	err   error
	mem   *memTable // the memtable a helper inserts into (insert_group.go)
	lead  *writer   // a helper's leader, whose group it inserts
	wake  chan struct{}
	// wakeState says whether the writer polls, parked or was signaled
	// (writer_wake.go).
	wakeState atomic.Uint32
	// grp is the group this writer leads, if it leads one.
	grp commitGroup
	// closeFlush: Close's own flush, let through while the DB is closing.
	closeFlush bool
}

// commitGroup is one commit group, kept in its leader's writer, which
// outlives the group: the leader returns only after the group is published.
type commitGroup struct {
	writers []*writer // the leader first
	last    uint64    // the group's last sequence
	// keys and bytes are the group's records and batch bytes; logged: a
	// batch goes to the WAL; sync: the WAL is synced.
	keys, bytes  int
	logged, sync bool
	// The parallel insert (insert_group.go).
	next atomic.Int64   // index of the next batch to take
	wg   sync.WaitGroup // helpers still inserting
	// wakes counts the group's followers woken (as helpers, and when the
	// group is done), added to the DB's counts once per group.
	wakes wakeCounts
	// split inserts a lone large batch from two goroutines
	// (insert_split.go).
	split splitInsert
	// wal writes a large group's WAL records while it inserts
	// (wal_overlap.go).
	wal walWrite
	// Publication (publish.go), under DB.pub.mu.
	done, published bool
	err             error
}

var writerPool = sync.Pool{New: func() any { return &writer{wake: make(chan struct{}, 1)} }}

// writerQueue is a FIFO of writers.
type writerQueue struct {
	q    []*writer
	head int
}

func (q *writerQueue) push(w *writer) {
	if q.head > 0 && q.head == len(q.q) {
		q.q, q.head = q.q[:0], 0
	}
	q.q = append(q.q, w)
}
func (q *writerQueue) len() int         { return len(q.q) - q.head }
func (q *writerQueue) at(i int) *writer { return q.q[q.head+i] }
func (q *writerQueue) pop(n int) {
	for i := 0; i < n; i++ {
		q.q[q.head+i] = nil
	}
	q.head += n
	if q.head == len(q.q) {
		q.q, q.head = q.q[:0], 0
	}
}

// WriteOptions are per-write settings.
type WriteOptions struct {
	Sync       bool
	DisableWAL bool
}

// ErrSyncWithoutWAL is the error of a write asking for both Sync and
// DisableWAL, in RocksDB's words: such a write has nothing to sync, and
// success would promise durability it does not have.
var ErrSyncWithoutWAL = errors.New("Invalid argument: Sync writes has to enable WAL.")

// Write applies the batch atomically.
func (db *DB) Write(b *Batch, wo WriteOptions) error {
	if db.opts.ReadOnly {
		return ErrReadOnly
	}
	if wo.Sync && wo.DisableWAL {
		return ErrSyncWithoutWAL
	}
	if b.tooLarge != nil {
		return b.tooLarge
	}
	if b.Empty() {
		return nil
	}
	if b.otherFamilies {
		if err := db.checkFamilies(b); err != nil {
			return err
		}
	}
	w := writerPool.Get().(*writer)
	w.batch, w.sync, w.noWAL, w.flush = b, wo.Sync, wo.DisableWAL, false
	err := db.commit(w)
	w.batch, w.mem, w.lead, w.err = nil, nil, nil, nil
	writerPool.Put(w)
	return err
}

// commit queues w and returns when its write is durable (as asked) and
// visible, or failed.
func (db *DB) commit(w *writer) error {
	w.state = stateWaiting
	db.mu.Lock()
	if db.mu.closed || db.mu.closing && !w.closeFlush {
		db.mu.Unlock()
		return ErrClosed
	}
	db.mu.writers.push(w)
	if waiting := db.mu.writers.len(); waiting > 1 {
		spin := waiting <= db.maxProcs()
		db.mu.Unlock()
		for {
			w.await(spin)
			switch w.state {
			case stateInsert:
				db.helpInsert(w)
				continue
			case stateDone:
				return w.err
			}
			break // stateLeader
		}
		db.mu.Lock()
	}
	return db.lead(w)
}

// lead runs one commit group with w at its head. DB.mu is held on entry and
// released on return.
func (db *DB) lead(w *writer) error {
	size := 0
	if !w.flush {
		size = w.batch.Size()
	}
	err := db.makeRoomForWrite(w.flush, size)
	n := 1
	// The group is copied out of the queue into the leader's writer: other
	// writers append to the queue while the leader works without the
	// mutex, and with the early hand-off (publish.go) the next leader forms
	// its own group while this one inserts.
	g := &w.grp
	g.writers = g.writers[:0]
	g.keys, g.bytes, g.logged, g.sync = 0, 0, false, false
	if err == nil && !w.flush {
		g.bytes = w.batch.Size()
		g.sync = w.sync
		// A batch naming other column families commits alone: its
		// records are routed to their families' memtables one by one.
		for n < db.mu.writers.len() && !w.batch.otherFamilies {
			f := db.mu.writers.at(n)
			if f.flush || f.batch.otherFamilies || g.bytes+f.batch.Size() > maxGroupBytes {
				break
			}
			g.bytes += f.batch.Size()
			g.sync = g.sync || f.sync
			n++
		}
		if g.sync && db.mu.retiringWALs > 0 {
			// The WALs before this one are synced first (walretire.go).
			db.mu.groupsAwaitingWALs++
			db.waitRetiredWALs()
			db.mu.groupsAwaitingWALs--
			if db.mu.bgErr != nil {
				err = fmt.Errorf("lsm: writes stopped after a background error: %w", db.mu.bgErr)
				// The group is not formed: only the leader's writer
				// leaves the queue, and each follower fails in turn as
				// it leads (finishGroup wakes only a formed group's).
				g.bytes, n = 0, 1
			}
		}
	}
	registered := err == nil && !w.flush
	if registered {
		for i := range n {
			f := db.mu.writers.at(i)
			g.writers = append(g.writers, f)
			f.batch.setSeq(db.mu.lastSeq + 1)
			db.mu.lastSeq += uint64(f.batch.Count())
			g.keys += f.batch.Count()
			g.logged = g.logged || !f.noWAL
		}
		if g.logged {
			db.prepareNextWAL()
		}
		g.last = db.mu.lastSeq
		db.registerGroup(w)
	}
	routed := registered && w.batch.otherFamilies
	if routed {
		err = db.routeBatch(w.batch)
	} else {
		db.def.mem.logical += uint64(g.bytes) + uint64(g.keys)*memEntryOverhead
	}
	mem, log, logFile := db.def.mem, db.mu.log, db.mu.logFile
	early := registered && !routed && db.canHandOffEarly()
	db.mu.Unlock()

	handedOff := false
	if err == nil && registered {
		if g.logged {
			for _, f := range g.writers {
				if !f.noWAL {
					log.AddRecord(f.batch.Repr())
				} else {
					mem.unlogged.Store(true)
				}
			}
		} else if !routed {
			mem.unlogged.Store(true)
		}
		switch {
		case routed && g.logged:
			if err = writeLog(log, logFile, g.sync); err == nil {
				err = db.insertRouted(w.batch, false)
			}
		case routed:
			err = db.insertRouted(w.batch, true)
		case g.logged && g.bytes >= walOverlapBytes && db.canOverlapWAL():
			handedOff, err = db.logAndInsert(mem, w, log, logFile, early)
		default:
			if g.logged {
				err = writeLog(log, logFile, g.sync)
			}
			if err == nil {
				if early {
					db.handOff(g)
					handedOff = true
				}
				err = db.insertGroup(mem, w)
			}
		}
	}
	if handedOff && err != nil {
		// The failure stops writes before the group is known failed, so
		// Close, which waits for publication, finds it.
		db.mu.Lock()
		if db.mu.bgErr == nil {
			db.mu.bgErr = err
		}
		db.mu.Unlock()
	}
	if registered {
		err = db.publishGroup(w, err)
	}
	if handedOff {
		db.finishGroup(w, err)
		return err
	}

	db.mu.Lock()
	if err != nil && db.mu.bgErr == nil && !w.flush {
		db.mu.bgErr = err
	}
	counted := g
	if err != nil || w.flush {
		counted = nil
	}
	db.passLeadership(n, counted, false)
	db.mu.Unlock()
	db.finishGroup(w, err)
	return err
}

// canHandOffEarly reports whether a leader may hand the writer queue to the
// next leader before inserting its group (publish.go): the options allow
// concurrent inserts of different groups.
func (db *DB) canHandOffEarly() bool {
	return db.opts.EnablePipelinedWrite && db.opts.AllowConcurrentMemtableWrite
}

// handOff passes the writer queue on from g's leader, whose WAL records are
// written, before g inserts.
func (db *DB) handOff(g *commitGroup) {
	db.mu.Lock()
	db.passLeadership(len(g.writers), g, true)
	db.mu.Unlock()
}

// passLeadership counts the committed group g (nil: none; early: it hands
// the queue on before inserting), removes the leader's n writers from the
// queue and wakes the next leader, if any (DB.mu held).
func (db *DB) passLeadership(n int, g *commitGroup, early bool) {
	s := &db.mu.stats
	if g != nil {
		s.recordGroup(n, g.keys, g.bytes, g.logged, g.sync)
		s.countGroup(n, g.keys, g.bytes, g.logged, g.sync)
	}
	if early {
		s.writes.EarlyHandOffs++
	}
	db.mu.writers.pop(n)
	if db.mu.writers.len() > 0 {
		s.writes.QueuedHandOffs++
		next := db.mu.writers.at(0)
		next.state = stateLeader
		s.leaderWakes.add(next.signal())
	} else if db.mu.closing {
		db.bgCond.Broadcast() // Close waits for the queue to drain
	}
}

// finishGroup wakes the leader's followers with the group's result and
// clears the group.
func (db *DB) finishGroup(w *writer, err error) {
	g := &w.grp
	for _, f := range g.writers[min(1, len(g.writers)):] {
		f.err = err
		f.state = stateDone
		g.wakes.add(f.signal())
	}
	if g.wakes != (wakeCounts{}) {
		db.memberWakes.add(g.wakes)
		g.wakes = wakeCounts{}
	}
	clear(g.writers)
	g.writers = g.writers[:0]
}

// insert adds a batch's records to mem.
func (db *DB) insert(mem *memTable, b *Batch) error {
	r, err := newBatchReader(b.Repr())
	if err != nil {
		return err
	}
	return insertRecords(mem, &r)
}

// needsSwitch reports whether f's active memtable is to be switched: when
// full, or with force when it holds anything (DB.mu held).
func needsSwitch(f *family, force bool) bool {
	if force {
		return !f.mem.empty()
	}
	return f.mem.full()
}

// switchFamily switches f's active memtable when needsSwitch says so and
// publishes the result to readers; a failure stops writes (DB.mu held).
func (db *DB) switchFamily(f *family, force bool) error {
	if !needsSwitch(f, force) {
		return nil
	}
	if err := db.switchMemtable(f); err != nil {
		db.mu.bgErr = err
		return err
	}
	f.publishReads()
	return nil
}

// insertRecords adds the records left in r to mem.
func insertRecords(mem *memTable, r *batchReader) error {
	for {
		kind, key, value, seq, ok, err := r.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := mem.add(seq, kind, key, value); err != nil {
			return fmt.Errorf("lsm: memtable insert: %w", err)
		}
	}
}

// makeRoomForWrite makes sure the active memtables can take a write,
// switching each one that is full (or, when force is set, each one that is
// not empty) and stalling writes while too many memtables or L0 tables
// wait in any column family, as RocksDB's write controller stalls every
// write for one family's backlog (DB.mu held; it is released while
// stalling).
func (db *DB) makeRoomForWrite(force bool, size int) error {
	delayed := false
	o := db.opts
	others := db.mu.vs.families.live
	for {
		if db.mu.bgErr != nil {
			return fmt.Errorf("lsm: writes stopped after a background error: %w", db.mu.bgErr)
		}
		l0, imm := len(db.def.current.levels[0]), len(db.def.imm)
		for _, f := range others {
			l0, imm = max(l0, len(f.current.levels[0])), max(imm, len(f.imm))
		}
		autoCompact := !o.DisableAutoCompactions
		switch {
		case !delayed && !force && autoCompact && o.Level0SlowdownWritesTrigger > 0 && l0 >= o.Level0SlowdownWritesTrigger:
			db.countStall(stallL0Slowdown)
			delayed = true
			db.delayWrite(size)
			continue
		case !delayed && !force && o.MaxWriteBufferNumber > 3 && imm >= o.MaxWriteBufferNumber-2:
			// RocksDB slows writes when the unflushed memtables (the
			// active one included) reach max_write_buffer_number - 1.
			db.countStall(stallMemtableSlowdown)
			delayed = true
			db.delayWrite(size)
			continue
		case !force && autoCompact && o.Level0StopWritesTrigger > 0 && l0 >= o.Level0StopWritesTrigger:
			// RocksDB stops every write, not only memtable switches.
			db.countStall(stallL0NumFiles)
			db.waitForBackground()
			continue
		}
		need, full := needsSwitch(db.def, force), false
		if need {
			full = len(db.def.imm) >= max(o.MaxWriteBufferNumber-1, 1)
		}
		for _, f := range others {
			if needsSwitch(f, force) {
				need = true
				full = full || len(f.imm) >= max(o.MaxWriteBufferNumber-1, 1)
			}
		}
		if !need {
			return nil
		}
		if full {
			db.countStall(stallMemtableCompaction)
			db.waitForBackground()
			continue
		}
		if db.visibleSeq.Load() != db.mu.lastSeq {
			// Groups handed off early may still be inserting into the
			// memtables about to become immutable (publish.go).
			if err := db.waitPublished(); err != nil {
				return err
			}
			continue
		}
		if err := db.switchFamily(db.def, force); err != nil {
			return err
		}
		for _, f := range others {
			if err := db.switchFamily(f, force); err != nil {
				return err
			}
		}
		db.countStallConditions()
		db.maybeScheduleFlush()
		return nil
	}
}

// delayWrite holds writes to delayed_write_rate as RocksDB does: each write
// owes size/rate of delay (14 us for 116 bytes at the default 8 MiB/s); the
// debt is slept in steps of at least 1 ms because shorter sleeps overshoot.
// DB.mu is held and released while sleeping.
func (db *DB) delayWrite(size int) {
	rate := float64(db.opts.DelayedWriteRate)
	if rate <= 0 {
		rate = 16 << 20
	}
	db.mu.delayDebt += time.Duration(float64(size) / rate * float64(time.Second))
	if db.mu.delayDebt < time.Millisecond {
		return
	}
	d := db.mu.delayDebt
	db.mu.delayDebt = 0
	start := time.Now()
	db.mu.Unlock()
	time.Sleep(d)
	db.mu.Lock()
	db.mu.stats.recordStall(time.Since(start))
}

// waitForBackground blocks a stalled writer until a flush or compaction ends.
func (db *DB) waitForBackground() {
	start := time.Now()
	db.maybeScheduleFlush()
	db.maybeScheduleCompaction()
	db.bgCond.Wait()
	db.mu.stats.recordStall(time.Since(start))
}
