//go:build rocksdb

// RocksDB's TransactionDB and OptimisticTransactionDB for the engine. The
// database opens as one of them; since both are DBs (StackableDB
// forwards every DB call to the database underneath), the rocksdb_t the
// rest of the engine uses holds the transaction DB itself, and
// rocksdb_close, deleting it, closes both. The handle structs repeat
// c.cc's first members, as bridge.cc explains.

#include "txnbridge.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/utilities/optimistic_transaction_db.h>
#include <rocksdb/utilities/transaction.h>
#include <rocksdb/utilities/transaction_db.h>

using ROCKSDB_NAMESPACE::ColumnFamilyDescriptor;
using ROCKSDB_NAMESPACE::ColumnFamilyHandle;
using ROCKSDB_NAMESPACE::ColumnFamilyOptions;
using ROCKSDB_NAMESPACE::DBOptions;
using ROCKSDB_NAMESPACE::OptimisticTransactionDB;
using ROCKSDB_NAMESPACE::OptimisticTransactionOptions;
using ROCKSDB_NAMESPACE::Options;
using ROCKSDB_NAMESPACE::ReadOptions;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;
using ROCKSDB_NAMESPACE::Transaction;
using ROCKSDB_NAMESPACE::TransactionDB;
using ROCKSDB_NAMESPACE::TransactionDBOptions;
using ROCKSDB_NAMESPACE::TransactionOptions;
using ROCKSDB_NAMESPACE::WriteOptions;

struct rocksdb_t {
  ROCKSDB_NAMESPACE::DB* rep;
};
struct rocksdb_options_t {
  Options rep;
};
struct rocksdb_column_family_handle_t {
  ColumnFamilyHandle* rep;
};

struct gdb_txndb_t {
  TransactionDB* pessimistic;           // set for --transaction_db
  OptimisticTransactionDB* optimistic;  // set for --optimistic_transaction_db
};

struct gdb_txn_t {
  gdb_txndb_t db;
  Transaction* txn = nullptr;  // reused by every BeginTransaction
  WriteOptions write_options;
  TransactionOptions options;
  OptimisticTransactionOptions optimistic_options;
  ReadOptions read_options;  // its snapshot is the transaction's once set
  std::string value;         // the last value read
};

static char* status_text(const Status& s) {
  std::string m = s.ToString();
  char* out = static_cast<char*>(malloc(m.size() + 1));
  memcpy(out, m.c_str(), m.size() + 1);
  return out;
}

static gdb_txn_result result_of(const Status& s) {
  gdb_txn_result r{};
  if (s.ok()) return r;
  if (s.IsBusy()) {
    r.code = GDB_TXN_BUSY;
  } else if (s.IsTimedOut()) {
    r.code = GDB_TXN_TIMED_OUT;
  } else if (s.IsTryAgain()) {
    r.code = GDB_TXN_TRY_AGAIN;
  } else {
    r.code = GDB_TXN_ERROR;
  }
  r.err = status_text(s);
  return r;
}

extern "C" {

char* gdb_txndb_open(const rocksdb_options_t* opts, const char* path, int optimistic,
                     rocksdb_t** db, rocksdb_column_family_handle_t** cf,
                     gdb_txndb_t** tdb) {
  Options options = opts->rep;
  TransactionDBOptions txn_db_options;
  if (!optimistic && options.unordered_write) {
    // db_bench's settings for unordered writes under a TransactionDB.
    options.two_write_queues = true;
    txn_db_options.skip_concurrency_control = true;
    txn_db_options.write_policy = ROCKSDB_NAMESPACE::WRITE_PREPARED;
  }
  std::vector<ColumnFamilyDescriptor> families{
      ColumnFamilyDescriptor(ROCKSDB_NAMESPACE::kDefaultColumnFamilyName,
                             ColumnFamilyOptions(options))};
  std::vector<ColumnFamilyHandle*> handles;
  gdb_txndb_t out{nullptr, nullptr};
  ROCKSDB_NAMESPACE::DB* opened = nullptr;
  Status s;
  if (optimistic) {
    s = OptimisticTransactionDB::Open(DBOptions(options), path, families, &handles,
                                      &out.optimistic);
    opened = out.optimistic;
  } else {
    s = TransactionDB::Open(DBOptions(options), txn_db_options, path, families, &handles,
                            &out.pessimistic);
    opened = out.pessimistic;
  }
  if (!s.ok()) return status_text(s);
  *db = new rocksdb_t{opened};
  *cf = new rocksdb_column_family_handle_t{handles[0]};
  *tdb = new gdb_txndb_t(out);
  return nullptr;
}

void gdb_txndb_destroy(gdb_txndb_t* tdb) { delete tdb; }

gdb_txn_t* gdb_txn_create(gdb_txndb_t* tdb, int verify_checksums) {
  gdb_txn_t* t = new gdb_txn_t;
  t->db = *tdb;
  t->read_options.verify_checksums = verify_checksums != 0;
  return t;
}

void gdb_txn_destroy(gdb_txn_t* t) {
  delete t->txn;
  delete t;
}

void gdb_txn_begin(gdb_txn_t* t, int64_t lock_timeout_ms, int set_snapshot, int sync,
                   int disable_wal) {
  t->write_options.sync = sync != 0;
  t->write_options.disableWAL = disable_wal != 0;
  if (t->db.optimistic != nullptr) {
    t->optimistic_options.set_snapshot = set_snapshot != 0;
    t->txn = t->db.optimistic->BeginTransaction(t->write_options, t->optimistic_options,
                                                t->txn);
  } else {
    t->options.lock_timeout = lock_timeout_ms;
    t->options.set_snapshot = set_snapshot != 0;
    t->txn = t->db.pessimistic->BeginTransaction(t->write_options, t->options, t->txn);
  }
  // As in db_bench, reads use the snapshot only once SetSnapshot is called
  // for them.
  t->read_options.snapshot = nullptr;
}

void gdb_txn_set_snapshot(gdb_txn_t* t) {
  t->txn->SetSnapshot();
  t->read_options.snapshot = t->txn->GetSnapshot();
}

int gdb_txn_has_snapshot(gdb_txn_t* t) { return t->txn->GetSnapshot() != nullptr; }

gdb_txn_result gdb_txn_get(gdb_txn_t* t, int for_update, const char* key, size_t key_len) {
  Slice k(key, key_len);
  Status s = for_update ? t->txn->GetForUpdate(t->read_options, k, &t->value)
                        : t->txn->Get(t->read_options, k, &t->value);
  if (s.IsNotFound()) return gdb_txn_result{};
  gdb_txn_result r = result_of(s);
  if (s.ok()) {
    r.found = 1;
    r.value = t->value.data();
    r.value_len = t->value.size();
  }
  return r;
}

gdb_txn_result gdb_txn_put(gdb_txn_t* t, const char* key, size_t key_len, const char* value,
                           size_t value_len) {
  return result_of(t->txn->Put(Slice(key, key_len), Slice(value, value_len)));
}

gdb_txn_result gdb_txn_delete(gdb_txn_t* t, const char* key, size_t key_len) {
  return result_of(t->txn->Delete(Slice(key, key_len)));
}

gdb_txn_result gdb_txn_single_delete(gdb_txn_t* t, const char* key, size_t key_len) {
  return result_of(t->txn->SingleDelete(Slice(key, key_len)));
}

gdb_txn_result gdb_txn_commit(gdb_txn_t* t) { return result_of(t->txn->Commit()); }

gdb_txn_result gdb_txn_rollback(gdb_txn_t* t) { return result_of(t->txn->Rollback()); }

}  // extern "C"
