package txn_test

import (
	"bytes"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/engine/enginetest"
	"github.com/godbbench/godbbench/engine/native"
	"github.com/godbbench/godbbench/engine/pebble"
	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/txn"
)

func openWith(t *testing.T, op engine.Opener) enginetest.TransactionOpenFunc {
	return func(dir string, pessimistic bool) (engine.DB, engine.TransactionDB) {
		var warn bytes.Buffer
		db, err := op.Open(dir, options.Default(), &warn)
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		mode := txn.Optimistic
		if pessimistic {
			mode = txn.Pessimistic
		}
		return db, txn.New(db, mode)
	}
}

func TestTransactionsNative(t *testing.T) {
	enginetest.RunTransactions(t, openWith(t, native.Opener{}))
}

func TestTransactionsPebble(t *testing.T) {
	enginetest.RunTransactions(t, openWith(t, pebble.Opener{}))
}
