// Package txn builds RocksDB's two kinds of transactions over the
// engine.DB contract, for engines that have none of their own (native and
// pebble); db_bench's --transaction_db and --optimistic_transaction_db
// run through it there. The rocksdb engine uses RocksDB's own
// TransactionDB and OptimisticTransactionDB instead.
//
// Contract:
//   - New(db, Pessimistic) or New(db, Optimistic) returns an
//     engine.TransactionDB over db. Every transaction of one process must go
//     through the same value: locks and conflict checks live in its memory,
//     so they are honest for one process only, and writes made to db
//     directly (not through a transaction) are neither locked nor seen by
//     the conflict checks.
//   - Writes are staged in the transaction (Get and GetForUpdate see them)
//     and applied at Commit as one engine.Batch, so a transaction's writes
//     become visible all at once or not at all. SingleDelete stages a
//     Delete (engine.Batch has no single deletes).
//   - Keys are locked and checked by slot: a hash of the user key picks one
//     of lockSlots slots. Two keys in one slot conflict as if they were one
//     key, which can only add waits and aborts, never lose an update.
//   - Pessimistic: GetForUpdate and the writes take the key's slot lock,
//     waiting at most the transaction's LockTimeout (a negative one is
//     engine.DefaultLockTimeout, 0 does not wait), and fail with
//     engine.ErrLockTimeout after that; the locks are held until Commit or
//     Rollback. No deadlock detection: a cycle of waiters ends when their
//     timeouts expire. With a snapshot (SetSnapshot, or
//     TransactionOptions.SetSnapshot), locking a slot that a transaction
//     committed after the snapshot fails with engine.ErrBusy.
//   - Optimistic: no locks. GetForUpdate and the writes track the key's
//     slot; Commit, under one commit lock for the whole DB, fails with
//     engine.ErrBusy when a tracked slot was committed since the
//     transaction's snapshot, or since it began when it has none.
//   - Reads (Get, GetForUpdate) see the latest committed data, not a
//     snapshot: the contract has no snapshots. What holds instead: a
//     transaction that commits has read, of every key whose slot it locked
//     with a snapshot (pessimistic) or tracked (optimistic), the value as of
//     its snapshot (or, optimistic without one, its start), since a later
//     commit of that slot makes it fail. So db_bench's read-modify-write
//     loses no update. A pessimistic transaction without a snapshot reads
//     and writes under its locks only, as RocksDB's does, and reads of keys
//     it neither locks nor tracks are read-committed.
//   - Commit order: a committing transaction applies its batch, then takes
//     the next commit number from a counter and stamps it on the slots it
//     wrote, then releases its locks. A snapshot is the counter's value, so
//     every commit numbered at or below a snapshot is fully applied.
//   - A Transaction object is used by one goroutine; the TransactionDB is
//     safe for concurrent use. Running a transaction allocates nothing once
//     the object's buffers have grown to the transaction's size.
package txn
