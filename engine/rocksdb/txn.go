//go:build rocksdb

package rocksdb

// RocksDB's own transactions (engine.TransactionDB): a database opened
// with options.Options.TransactionDB is RocksDB's TransactionDB (keys
// locked with RocksDB's lock manager, lock timeouts and snapshot
// validation its own), with OptimisticTransactionDB its
// OptimisticTransactionDB (conflicts found by RocksDB at commit), each
// with default DB-wide transaction options, as db_bench opens them. Every
// other call of the engine goes to the same database, so plain writes to
// a TransactionDB take its locks too, as db_bench's do. The functions
// behind it are in txnbridge.cc.

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "txnbridge.h"

#cgo noescape gdb_txn_get
#cgo nocallback gdb_txn_get
#cgo noescape gdb_txn_put
#cgo nocallback gdb_txn_put
#cgo noescape gdb_txn_delete
#cgo nocallback gdb_txn_delete
#cgo noescape gdb_txn_single_delete
#cgo nocallback gdb_txn_single_delete
*/
import "C"

import (
	"errors"
	"unsafe"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

var _ engine.TransactionDB = (*DB)(nil)

// errNoTransactionDB is NewTransaction's error on a database opened
// without a transaction mode.
var errNoTransactionDB = errors.New("rocksdb: the database was opened without --transaction_db or --optimistic_transaction_db")

// wantsTransactions reports whether o opens a transaction database. A
// read-only open wins, as in db_bench, which refuses --readonly with
// --transaction_db before opening.
func wantsTransactions(o *options.Options) bool {
	return !o.ReadOnly && (o.TransactionDB || o.OptimisticTransactionDB)
}

// openTransactionDB opens the database at path as a transaction database
// (optimistic when asked for, whatever TransactionDB says, as in
// db_bench).
func (d *DB) openTransactionDB(path *C.char, o *options.Options) error {
	return cError(C.gdb_txndb_open(d.cfg.opts, path, C.int(boolByte(o.OptimisticTransactionDB)), &d.db, &d.cf, &d.txnDB))
}

// closeTransactionDB frees the transaction side; the caller then closes
// the database.
func (d *DB) closeTransactionDB() {
	if d.txnDB != nil {
		C.gdb_txndb_destroy(d.txnDB)
		d.txnDB = nil
	}
}

// NewTransaction implements engine.TransactionDB. The object must be
// closed before the DB.
func (d *DB) NewTransaction() (engine.Transaction, error) {
	if d.db == nil {
		return nil, errClosed
	}
	if d.txnDB == nil {
		return nil, errNoTransactionDB
	}
	return &transaction{t: C.gdb_txn_create(d.txnDB, C.int(boolByte(d.verifyChecksums)))}, nil
}

// transaction is one goroutine's RocksDB transaction object.
type transaction struct {
	t *C.gdb_txn_t
}

// Begin implements engine.Transaction.
func (t *transaction) Begin(o *engine.TransactionOptions, wo *engine.WriteOptions) error {
	ms := int64(-1) // RocksDB's default lock timeout
	if o.LockTimeout >= 0 {
		ms = o.LockTimeout.Milliseconds()
	}
	C.gdb_txn_begin(t.t, C.int64_t(ms), C.int(boolByte(o.SetSnapshot)), C.int(boolByte(wo.Sync)), C.int(boolByte(wo.DisableWAL)))
	return nil
}

// SetSnapshot implements engine.Transaction.
func (t *transaction) SetSnapshot() error {
	C.gdb_txn_set_snapshot(t.t)
	return nil
}

// HasSnapshot implements engine.Transaction.
func (t *transaction) HasSnapshot() bool { return C.gdb_txn_has_snapshot(t.t) != 0 }

// Get implements engine.Transaction.
func (t *transaction) Get(key []byte, fn func(value []byte)) (bool, error) {
	return t.get(0, key, fn)
}

// GetForUpdate implements engine.Transaction.
func (t *transaction) GetForUpdate(key []byte, fn func(value []byte)) (bool, error) {
	return t.get(1, key, fn)
}

func (t *transaction) get(forUpdate C.int, key []byte, fn func(value []byte)) (bool, error) {
	r := C.gdb_txn_get(t.t, forUpdate, bytesPtr(key), C.size_t(len(key)))
	if r.code != C.GDB_TXN_OK {
		return false, transactionError(r)
	}
	if r.found == 0 {
		return false, nil
	}
	fn(unsafe.Slice((*byte)(unsafe.Pointer(r.value)), int(r.value_len)))
	return true, nil
}

// SingleDelete implements engine.Transaction with RocksDB's
// Transaction::SingleDelete.
func (t *transaction) SingleDelete(key []byte) error {
	return transactionError(C.gdb_txn_single_delete(t.t, bytesPtr(key), C.size_t(len(key))))
}

// Put implements engine.Transaction.
func (t *transaction) Put(key, value []byte) error {
	return transactionError(C.gdb_txn_put(t.t, bytesPtr(key), C.size_t(len(key)), bytesPtr(value), C.size_t(len(value))))
}

// Delete implements engine.Transaction.
func (t *transaction) Delete(key []byte) error {
	return transactionError(C.gdb_txn_delete(t.t, bytesPtr(key), C.size_t(len(key))))
}

// Commit implements engine.Transaction.
func (t *transaction) Commit() error { return transactionError(C.gdb_txn_commit(t.t)) }

// Rollback implements engine.Transaction.
func (t *transaction) Rollback() error { return transactionError(C.gdb_txn_rollback(t.t)) }

// Close implements engine.Transaction.
func (t *transaction) Close() error {
	if t.t != nil {
		C.gdb_txn_destroy(t.t)
		t.t = nil
	}
	return nil
}

// conflictError is a RocksDB status db_bench counts as an abort: its
// text, and the engine error it is (errors.Is).
type conflictError struct {
	kind error
	text string
}

func (e *conflictError) Error() string { return e.text }
func (e *conflictError) Unwrap() error { return e.kind }

// transactionError turns a call's result into nil or its error.
func transactionError(r C.gdb_txn_result) error {
	if r.code == C.GDB_TXN_OK {
		return nil
	}
	text := C.GoString(r.err)
	C.rocksdb_free(unsafe.Pointer(r.err))
	var kind error
	switch r.code {
	case C.GDB_TXN_BUSY:
		kind = engine.ErrBusy
	case C.GDB_TXN_TIMED_OUT:
		kind = engine.ErrLockTimeout
	case C.GDB_TXN_TRY_AGAIN:
		kind = engine.ErrTryAgain
	default:
		return errors.New(text)
	}
	return &conflictError{kind: kind, text: text}
}
