// C declarations of the transaction functions in txnbridge.cc: RocksDB's
// TransactionDB and OptimisticTransactionDB behind the handles the rest of
// the engine uses, and one transaction object per benchmark goroutine.
#ifndef GODBBENCH_ROCKSDB_TXNBRIDGE_H
#define GODBBENCH_ROCKSDB_TXNBRIDGE_H

#include <stddef.h>
#include <stdint.h>
#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

// gdb_txndb_t is an open TransactionDB or OptimisticTransactionDB, whose
// DB (the same object) the rocksdb_t of gdb_txndb_open also holds.
typedef struct gdb_txndb_t gdb_txndb_t;

// gdb_txn_t is a reusable transaction object with its read and write
// options and a buffer for the values it reads.
typedef struct gdb_txn_t gdb_txn_t;

// Status codes of the transaction calls: the Status classes db_bench
// tells apart.
enum {
  GDB_TXN_OK = 0,
  GDB_TXN_BUSY = 1,      // Status::Busy: a write conflict
  GDB_TXN_TIMED_OUT = 2, // Status::TimedOut: a lock wait expired
  GDB_TXN_TRY_AGAIN = 3, // Status::TryAgain
  GDB_TXN_ERROR = 4      // any other failure
};

// gdb_txn_result is a call's outcome: code, and when it is not GDB_TXN_OK
// the Status text in err (free with rocksdb_free); for a read, found and
// the value (valid until the transaction object's next call).
typedef struct {
  int code;
  char* err;
  int found;
  const char* value;
  size_t value_len;
} gdb_txn_result;

// gdb_txndb_open opens the database at path with its default column
// family as an OptimisticTransactionDB (optimistic != 0) or a
// TransactionDB with default TransactionDBOptions, as db_bench does. *db
// is a rocksdb_t for every other call of the engine (closing it with
// rocksdb_close closes the database), *cf the default column family's
// handle, *tdb the transaction side (free with gdb_txndb_destroy before
// closing *db). It returns an error string or NULL.
char* gdb_txndb_open(const rocksdb_options_t* opts, const char* path, int optimistic,
                     rocksdb_t** db, rocksdb_column_family_handle_t** cf,
                     gdb_txndb_t** tdb);

// gdb_txndb_destroy frees the handle, not the database.
void gdb_txndb_destroy(gdb_txndb_t* tdb);

// gdb_txn_create makes a transaction object; gdb_txn_destroy frees it.
gdb_txn_t* gdb_txn_create(gdb_txndb_t* tdb, int verify_checksums);
void gdb_txn_destroy(gdb_txn_t* t);

// gdb_txn_begin starts a transaction (BeginTransaction reusing the
// object's last one): lock_timeout_ms as TransactionOptions::lock_timeout
// (pessimistic only), set_snapshot as TransactionOptions::set_snapshot,
// writes synced or without WAL as asked.
void gdb_txn_begin(gdb_txn_t* t, int64_t lock_timeout_ms, int set_snapshot, int sync,
                   int disable_wal);

// gdb_txn_set_snapshot takes a snapshot now (Transaction::SetSnapshot),
// which the transaction's reads then use, as db_bench's do.
void gdb_txn_set_snapshot(gdb_txn_t* t);

// gdb_txn_has_snapshot reports whether the transaction holds a snapshot.
int gdb_txn_has_snapshot(gdb_txn_t* t);

// gdb_txn_get is Transaction::Get, or GetForUpdate when for_update != 0.
gdb_txn_result gdb_txn_get(gdb_txn_t* t, int for_update, const char* key, size_t key_len);

// gdb_txn_put, gdb_txn_delete and gdb_txn_single_delete stage a write.
gdb_txn_result gdb_txn_put(gdb_txn_t* t, const char* key, size_t key_len, const char* value,
                           size_t value_len);
gdb_txn_result gdb_txn_delete(gdb_txn_t* t, const char* key, size_t key_len);
gdb_txn_result gdb_txn_single_delete(gdb_txn_t* t, const char* key, size_t key_len);

// gdb_txn_commit and gdb_txn_rollback end the transaction.
gdb_txn_result gdb_txn_commit(gdb_txn_t* t);
gdb_txn_result gdb_txn_rollback(gdb_txn_t* t);

#ifdef __cplusplus
}
#endif

#endif
