package engine

import (
	"errors"
	"time"
)

// Transactions (db_bench --transaction_db and --optimistic_transaction_db).
//
// A DB opened with options.Options.TransactionDB (pessimistic: keys are
// locked as a transaction reads them for update or writes them, and
// waiters give up after the lock timeout) or
// options.Options.OptimisticTransactionDB (no locks: a commit fails when
// a key the transaction tracked was written by another commit since the
// transaction began) may implement TransactionDB. The rocksdb engine does,
// with RocksDB's own TransactionDB and OptimisticTransactionDB; for an
// engine that does not, the driver wraps the DB with package txn, which
// builds both modes over the DB contract.

// TransactionOptions are the per-transaction settings of RocksDB's
// TransactionOptions that db_bench sets.
type TransactionOptions struct {
	// LockTimeout is how long a pessimistic transaction waits for a key's
	// lock before failing with ErrLockTimeout (--transaction_lock_timeout,
	// in milliseconds there); 0 fails at once, a negative value means the
	// default of RocksDB's TransactionDBOptions::transaction_lock_timeout,
	// DefaultLockTimeout. Optimistic transactions take no locks.
	LockTimeout time.Duration
	// SetSnapshot takes the transaction's snapshot as it begins
	// (--transaction_set_snapshot), as Transaction.SetSnapshot does later.
	SetSnapshot bool
}

// DefaultLockTimeout is the lock timeout of a transaction whose
// LockTimeout is negative (RocksDB's transaction_lock_timeout default).
const DefaultLockTimeout = time.Second

// TransactionDB begins transactions.
type TransactionDB interface {
	// NewTransaction returns a transaction object for one goroutine,
	// reused for every transaction it runs (Begin), so that running one
	// does not allocate. It must be closed before the DB.
	NewTransaction() (Transaction, error)
}

// Transaction is one goroutine's transaction object: Begin starts a
// transaction, which ends with Commit or Rollback; then Begin may start
// the next. Bytes handed to Get's callback are valid only during the
// call.
type Transaction interface {
	// Begin starts a transaction that commits with the write options wo.
	Begin(o *TransactionOptions, wo *WriteOptions) error
	// SetSnapshot takes the transaction's snapshot now (RocksDB's
	// Transaction::SetSnapshot): a pessimistic transaction then fails
	// with ErrBusy when it locks a key another transaction committed
	// after the snapshot; an optimistic one fails its commit in that case.
	SetSnapshot() error
	// HasSnapshot reports whether the transaction holds a snapshot.
	HasSnapshot() bool
	// Get reads key as the transaction sees it: its own writes first.
	Get(key []byte, fn func(value []byte)) (found bool, err error)
	// GetForUpdate is Get that also locks key (pessimistic) or tracks it
	// for the commit's conflict check (optimistic).
	GetForUpdate(key []byte, fn func(value []byte)) (found bool, err error)
	// Put and Delete stage a write, applied at Commit; a pessimistic
	// transaction locks the key first.
	Put(key, value []byte) error
	Delete(key []byte) error
	// SingleDelete stages RocksDB's SingleDelete of key (see
	// DB.SingleDelete); an engine without single deletes in its batches
	// stages a Delete.
	SingleDelete(key []byte) error
	// Commit applies the staged writes atomically and ends the
	// transaction, which on failure is rolled back.
	Commit() error
	// Rollback drops the staged writes, releases the locks and ends the
	// transaction.
	Rollback() error
	// Close releases the object's resources; it is unusable afterwards.
	Close() error
}

// ErrLockTimeout is a pessimistic transaction's failure to lock a key
// within its lock timeout, in RocksDB's words (Status::TimedOut with
// subcode kLockTimeout).
var ErrLockTimeout = errors.New("Operation timed out: Timeout waiting to lock key")

// ErrBusy is a write conflict: a key the transaction locks or tracks was
// written since its snapshot (or, optimistic, since it began), in
// RocksDB's words (Status::Busy).
var ErrBusy = errors.New("Resource busy: ")

// ErrTryAgain is a conflict check that could not be made (RocksDB's
// Status::TryAgain, e.g. when the memtables no longer hold the history
// an optimistic commit needs); the transaction may be retried.
var ErrTryAgain = errors.New("Operation failed. Try again.: ")

// IsTransactionConflict reports whether err is a transaction failure that
// db_bench counts as an abort rather than an error: ErrBusy, ErrLockTimeout
// or ErrTryAgain, also when wrapped with the engine's own message.
func IsTransactionConflict(err error) bool {
	return errors.Is(err, ErrBusy) || errors.Is(err, ErrLockTimeout) || errors.Is(err, ErrTryAgain)
}
