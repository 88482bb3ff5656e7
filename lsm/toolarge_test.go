package lsm

import (
	"errors"
	"testing"

	"github.com/godbbench/godbbench/sst"
)

// TestTooLargeEntriesRefused: a key or value no table can hold is refused
// at Write, with nothing of its batch written, so it is never acknowledged
// and then left in a WAL no flush or reopen can get past.
func TestTooLargeEntriesRefused(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	hugeValue := make([]byte, sst.MaxValueLen+1) // pages never touched
	hugeKey := make([]byte, sst.MaxKeyLen+1)
	for _, c := range []struct {
		name string
		fill func(b *Batch)
		want error
	}{
		{"value", func(b *Batch) { b.Put([]byte("a"), []byte("1")); b.Put([]byte("b"), hugeValue) }, ErrValueTooLarge},
		{"key", func(b *Batch) { b.Put(hugeKey, []byte("1")); b.Put([]byte("a"), []byte("1")) }, ErrKeyTooLarge},
		{"delete key", func(b *Batch) { b.Delete(hugeKey) }, ErrKeyTooLarge},
	} {
		b := NewBatch()
		c.fill(b)
		if err := db.Write(b, WriteOptions{}); !errors.Is(err, c.want) {
			t.Errorf("%s: Write = %v, want %v", c.name, err, c.want)
		}
		b.Reset()
		b.Put([]byte("after-reset"), []byte("x"))
		if err := db.Write(b, WriteOptions{}); err != nil {
			t.Errorf("%s: a reset batch is still refused: %v", c.name, err)
		}
	}
	if _, found := getString(t, db, "a"); found {
		t.Fatal("a write of a refused batch is visible")
	}
	if err := db.Flush(); err != nil {
		t.Fatalf("flush after refused writes: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, dir, testOptions())
	defer db.Close()
	if v, found := getString(t, db, "after-reset"); !found || v != "x" {
		t.Fatalf("after reopen: %q %v", v, found)
	}
}
