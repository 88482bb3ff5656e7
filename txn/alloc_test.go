package txn

import (
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// discardDB is an engine.DB whose writes vanish and whose reads find a
// fixed value, so that an allocation count measures package txn alone.
type discardDB struct{ engine.DB }

type discardBatch struct{ n int }

func (discardDB) NewBatch() engine.Batch                         { return &discardBatch{} }
func (discardDB) Apply(engine.Batch, *engine.WriteOptions) error { return nil }
func (discardDB) Get(_ []byte, fn func([]byte)) (bool, error) {
	fn(storedValue)
	return true, nil
}

var storedValue = []byte("42")

func (b *discardBatch) Put(_, _ []byte)         { b.n++ }
func (b *discardBatch) Delete(_ []byte)         { b.n++ }
func (b *discardBatch) Merge(_, _ []byte)       { b.n++ }
func (b *discardBatch) DeleteRange(_, _ []byte) { b.n++ }
func (b *discardBatch) Count() int              { return b.n }
func (b *discardBatch) Reset()                  { b.n = 0 }
func (b *discardBatch) Close()                  {}

// TestTransactionDoesNotAllocate: once a transaction object's buffers have
// grown, a transaction of randomtransaction's shape (snapshot, reads for
// update, delete and put of two keys, commit) allocates nothing, in
// either mode.
func TestTransactionDoesNotAllocate(t *testing.T) {
	for _, mode := range []Mode{Pessimistic, Optimistic} {
		tx, _ := New(discardDB{}, mode).NewTransaction()
		o := &engine.TransactionOptions{LockTimeout: 100e6, SetSnapshot: true}
		wo := &engine.WriteOptions{}
		keys := [][]byte{[]byte("00011234"), []byte("00025678")}
		value := []byte("43")
		var got []byte
		read := func(v []byte) { got = append(got[:0], v...) }
		run := func() {
			if err := tx.Begin(o, wo); err != nil {
				t.Fatal(err)
			}
			for _, k := range keys {
				if _, err := tx.GetForUpdate(k, read); err != nil {
					t.Fatal(err)
				}
				if err := tx.Delete(k); err != nil {
					t.Fatal(err)
				}
				if err := tx.Put(k, value); err != nil {
					t.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		run()
		if n := testing.AllocsPerRun(100, run); n != 0 {
			t.Errorf("mode %d: %v allocations per transaction, want 0", mode, n)
		}
		tx.Close()
	}
}
