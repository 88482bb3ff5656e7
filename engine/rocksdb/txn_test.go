//go:build rocksdb

package rocksdb

import (
	"errors"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/engine/enginetest"
)

// TestTransactions runs the transaction suite on RocksDB's own
// TransactionDB and OptimisticTransactionDB.
func TestTransactions(t *testing.T) {
	enginetest.RunTransactions(t, func(dir string, pessimistic bool) (engine.DB, engine.TransactionDB) {
		o := testOptions()
		o.TransactionDB = pessimistic
		o.OptimisticTransactionDB = !pessimistic
		db := openWith(t, o)(dir).(*DB)
		return db, db
	})
}

// TestNoTransactionsWithoutMode: a database opened without a transaction
// mode refuses to begin transactions.
func TestNoTransactionsWithoutMode(t *testing.T) {
	db := openWith(t, testOptions())(t.TempDir()).(*DB)
	defer db.Close()
	if _, err := db.NewTransaction(); !errors.Is(err, errNoTransactionDB) {
		t.Fatalf("NewTransaction without a mode: %v, want %v", err, errNoTransactionDB)
	}
}
