package txn

import (
	"sync"

	"github.com/godbbench/godbbench/engine"
)

// Mode is the kind of transactions a DB runs.
type Mode int

const (
	// Pessimistic transactions lock keys as they use them (RocksDB's
	// TransactionDB, db_bench --transaction_db).
	Pessimistic Mode = iota + 1
	// Optimistic transactions check for conflicts at commit (RocksDB's
	// OptimisticTransactionDB, db_bench --optimistic_transaction_db).
	Optimistic
)

// DB runs transactions of one mode over an engine.DB.
type DB struct {
	db    engine.DB
	mode  Mode
	slots *slotTable
	// commitMu serializes optimistic commits: check, apply and stamp.
	commitMu *sync.Mutex
}

var _ engine.TransactionDB = (*DB)(nil)

// New returns transactions of mode over db. It does not own db.
func New(db engine.DB, mode Mode) *DB {
	return &DB{db: db, mode: mode, slots: newSlotTable(mode == Pessimistic), commitMu: new(sync.Mutex)}
}

// Over returns transactions of d's mode that share d's locks and commit
// stamps but read and write through db, which must reach the same store
// as d's DB (a wrapper of it that records what passes, say), so that
// transactions of either see each other's locks and conflicts.
func (d *DB) Over(db engine.DB) *DB {
	return &DB{db: db, mode: d.mode, slots: d.slots, commitMu: d.commitMu}
}

// NewTransaction implements engine.TransactionDB.
func (d *DB) NewTransaction() (engine.Transaction, error) {
	return newTransaction(d), nil
}
