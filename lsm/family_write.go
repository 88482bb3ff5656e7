package lsm

import "fmt"

// Writes of batches naming column families other than the default. Such a
// batch commits alone (commit.go): the leader resolves, under DB.mu, the
// active memtable of each family the batch names into DB.routeMems and
// charges each its share of the batch, then, with DB.mu released and the
// WAL written, inserts every record into its family's memtable. A batch
// of the default family alone never comes here.

// checkFamilies refuses a batch naming a family the DB does not have,
// with RocksDB's error, before it takes a sequence number.
func (db *DB) checkFamilies(b *Batch) error {
	r, err := newBatchReader(b.Repr())
	if err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	for {
		_, _, _, _, ok, err := r.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if db.familyByID(r.family) == nil {
			return ErrInvalidColumnFamily
		}
	}
}

// routeBatch resolves the memtables of the families b names into
// db.routeMems and adds each record's size to its memtable's logical size
// (DB.mu held, by the commit leader).
func (db *DB) routeBatch(b *Batch) error {
	r, err := newBatchReader(b.Repr())
	if err != nil {
		return err
	}
	for {
		_, key, value, _, ok, err := r.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		f := db.familyByID(r.family)
		if f == nil {
			return ErrInvalidColumnFamily
		}
		if int(r.family) >= len(db.routeMems) {
			db.routeMems = append(db.routeMems, make([]*memTable, int(r.family)+1-len(db.routeMems))...)
		}
		db.routeMems[r.family] = f.mem
		f.mem.logical += uint64(len(key)+len(value)) + memEntryOverhead
	}
}

// insertRouted adds b's records to the memtables routeBatch resolved,
// marking them unlogged when the batch skipped the WAL (the commit
// leader, DB.mu not held).
func (db *DB) insertRouted(b *Batch, unlogged bool) error {
	r, err := newBatchReader(b.Repr())
	if err != nil {
		return err
	}
	for {
		kind, key, value, seq, ok, err := r.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		mem := db.routeMems[r.family]
		if unlogged {
			mem.unlogged.Store(true)
		}
		if err := mem.add(seq, kind, key, value); err != nil {
			return fmt.Errorf("lsm: memtable insert: %w", err)
		}
	}
}
