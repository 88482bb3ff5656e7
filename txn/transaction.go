package txn

import (
	"errors"
	"slices"
	"time"

	"github.com/godbbench/godbbench/engine"
)

// errNotBegun is the error of an operation on a transaction object with no
// transaction begun (or one already committed or rolled back).
var errNotBegun = errors.New("txn: no transaction begun")

// errActive is the error of Begin while a transaction is still open.
var errActive = errors.New("txn: Begin while a transaction is open; Commit or Rollback it first")

// transaction is one goroutine's transaction object (engine.Transaction).
type transaction struct {
	d      *DB
	batch  engine.Batch
	wo     engine.WriteOptions
	opts   engine.TransactionOptions
	timer  *time.Timer // the lock waits' timer, stopped between waits
	active bool

	hasSnapshot bool
	snapshot    uint64 // the commit number the snapshot was taken at
	began       uint64 // the commit number when the transaction began

	// slots are the slots the transaction locked (pessimistic) or tracks
	// (optimistic), each once; written are those it wrote, each once.
	slots   []uint32
	written []uint32
	// since[i] is the commit number after which a commit of slots[i] is a
	// conflict (optimistic): the snapshot's when the slot was claimed
	// under one, else the start's. A snapshot set later does not move it:
	// a commit between the claim and that snapshot would go unseen (a lost
	// update), and RocksDB keeps each key's first number too.
	since  []uint64
	staged stagedWrites
}

var _ engine.Transaction = (*transaction)(nil)

func newTransaction(d *DB) *transaction {
	t := &transaction{d: d, batch: d.db.NewBatch(), timer: time.NewTimer(time.Hour)}
	t.timer.Stop()
	return t
}

// Begin implements engine.Transaction.
func (t *transaction) Begin(o *engine.TransactionOptions, wo *engine.WriteOptions) error {
	if t.active {
		return errActive
	}
	t.active = true
	t.opts = *o
	t.wo = *wo
	t.began = t.d.slots.lastCommit.Load()
	t.hasSnapshot = false
	if o.SetSnapshot {
		t.hasSnapshot, t.snapshot = true, t.began
	}
	return nil
}

// SetSnapshot implements engine.Transaction.
func (t *transaction) SetSnapshot() error {
	if !t.active {
		return errNotBegun
	}
	t.hasSnapshot, t.snapshot = true, t.d.slots.lastCommit.Load()
	return nil
}

// HasSnapshot implements engine.Transaction.
func (t *transaction) HasSnapshot() bool { return t.hasSnapshot }

// Get implements engine.Transaction.
func (t *transaction) Get(key []byte, fn func(value []byte)) (bool, error) {
	if !t.active {
		return false, errNotBegun
	}
	return t.read(key, fn)
}

// GetForUpdate implements engine.Transaction.
func (t *transaction) GetForUpdate(key []byte, fn func(value []byte)) (bool, error) {
	if !t.active {
		return false, errNotBegun
	}
	if err := t.claim(key); err != nil {
		return false, err
	}
	return t.read(key, fn)
}

// read looks key up in the staged writes, then in the DB.
func (t *transaction) read(key []byte, fn func(value []byte)) (bool, error) {
	if value, deleted, ok := t.staged.lookup(key); ok {
		if deleted {
			return false, nil
		}
		fn(value)
		return true, nil
	}
	return t.d.db.Get(key, fn)
}

// Put implements engine.Transaction.
func (t *transaction) Put(key, value []byte) error {
	if err := t.stage(key); err != nil {
		return err
	}
	t.staged.add(key, value, false)
	t.batch.Put(key, value)
	return nil
}

// Delete implements engine.Transaction.
func (t *transaction) Delete(key []byte) error {
	if err := t.stage(key); err != nil {
		return err
	}
	t.staged.add(key, nil, true)
	t.batch.Delete(key)
	return nil
}

// SingleDelete implements engine.Transaction with a Delete: engine.Batch
// has no single deletes, and a Delete leaves the same contents whenever a
// single delete's condition holds.
func (t *transaction) SingleDelete(key []byte) error { return t.Delete(key) }

// stage claims key for a write and records its slot as written.
func (t *transaction) stage(key []byte) error {
	if !t.active {
		return errNotBegun
	}
	if err := t.claim(key); err != nil {
		return err
	}
	if i := t.d.slots.slot(key); !slices.Contains(t.written, i) {
		t.written = append(t.written, i)
	}
	return nil
}

// claim locks key's slot (pessimistic: waiting up to the lock timeout,
// then checking the snapshot) or tracks it (optimistic).
func (t *transaction) claim(key []byte) error {
	s := t.d.slots
	i := s.slot(key)
	if slices.Contains(t.slots, i) {
		return nil
	}
	if t.d.mode == Pessimistic {
		timeout := t.opts.LockTimeout
		if timeout < 0 {
			timeout = engine.DefaultLockTimeout
		}
		if err := s.lock(i, timeout, t.timer); err != nil {
			return err
		}
		if t.hasSnapshot && s.changedSince(i, t.snapshot) {
			s.unlock(i)
			return engine.ErrBusy
		}
	}
	since := t.began
	if t.hasSnapshot {
		since = t.snapshot
	}
	t.slots = append(t.slots, i)
	t.since = append(t.since, since)
	return nil
}

// Commit implements engine.Transaction.
func (t *transaction) Commit() error {
	if !t.active {
		return errNotBegun
	}
	var err error
	if t.d.mode == Pessimistic {
		err = t.apply()
	} else {
		err = t.checkAndApply()
	}
	t.end()
	return err
}

// apply writes the staged batch and stamps the written slots with the
// next commit number; the caller holds the slots' locks or the commit
// lock.
func (t *transaction) apply() error {
	if t.batch.Count() == 0 {
		return nil
	}
	if err := t.d.db.Apply(t.batch, &t.wo); err != nil {
		return err
	}
	s := t.d.slots
	s.stamp(t.written, s.lastCommit.Add(1))
	return nil
}

// checkAndApply is an optimistic commit: under the commit lock, fail with
// ErrBusy when a tracked slot was committed since its number (since),
// else apply.
func (t *transaction) checkAndApply() error {
	if t.batch.Count() == 0 {
		return nil
	}
	t.d.commitMu.Lock()
	defer t.d.commitMu.Unlock()
	for j, i := range t.slots {
		if t.d.slots.changedSince(i, t.since[j]) {
			return engine.ErrBusy
		}
	}
	return t.apply()
}

// Rollback implements engine.Transaction.
func (t *transaction) Rollback() error {
	if !t.active {
		return errNotBegun
	}
	t.end()
	return nil
}

// end releases the locks, drops the staged writes and closes the
// transaction.
func (t *transaction) end() {
	if t.d.mode == Pessimistic {
		for _, i := range t.slots {
			t.d.slots.unlock(i)
		}
	}
	t.slots = t.slots[:0]
	t.since = t.since[:0]
	t.written = t.written[:0]
	t.staged.reset()
	t.batch.Reset()
	t.active = false
}

// Close implements engine.Transaction.
func (t *transaction) Close() error {
	if t.active {
		t.end()
	}
	t.batch.Close()
	return nil
}
