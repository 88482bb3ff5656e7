package engine

// ColumnFamilies is implemented by a DB opened with
// options.Options.NumColumnFamilies > 1 on an engine with RocksDB's
// column families. Such a DB opens with families 0 to
// Options.HotColumnFamilies()-1 (family 0 is "default", family i is named
// options.ColumnFamilyName(i)), creating those missing with the DB's own
// options, as db_bench does. The DB's own methods act on the default
// family, except Flush, which flushes every family created.
type ColumnFamilies interface {
	// ColumnFamily returns family i, a DB whose reads and writes act on
	// that family only, or nil when family i has not been created. The
	// family lives as long as the DB: its Close does nothing, and the
	// DB's Close releases it.
	ColumnFamily(i int) DB
	// CreateColumnFamily creates family i with the DB's options (RocksDB's
	// DB::CreateColumnFamily), or returns it when it exists.
	CreateColumnFamily(i int) (DB, error)
}

// ColumnFamilyBatch is implemented by the batches of a DB with column
// families: each entry names the family it goes to, so that one batch
// writes to several families atomically (RocksDB's WriteBatch::Put with a
// column family handle). Family i must have been created.
type ColumnFamilyBatch interface {
	PutCF(family int, key, value []byte)
	DeleteCF(family int, key []byte)
}
