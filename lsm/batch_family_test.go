package lsm

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/lsm/wal"
)

// TestBatchFamilyEncoding checks the column-family records against the
// bytes batch_family.go documents, and that the default family's records
// are the plain ones.
func TestBatchFamilyEncoding(t *testing.T) {
	b := NewBatch()
	b.PutCF(3, []byte("k1"), []byte("v1"))
	b.setSeq(100)
	want := []byte{0x64, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x05, 0x03, 0x02, 'k', '1', 0x02, 'v', '1'}
	if !bytes.Equal(b.Repr(), want) {
		t.Fatalf("PutCF(3) encodes to % x, want % x", b.Repr(), want)
	}
	if !b.HasOtherFamilies() {
		t.Fatal("a batch with a family-3 record does not report other families")
	}

	plain, cf0 := NewBatch(), NewBatch()
	plain.Put([]byte("a"), []byte("1"))
	plain.Delete([]byte("b"))
	plain.Merge([]byte("c"), []byte("2"))
	plain.DeleteRange([]byte("d"), []byte("e"))
	cf0.PutCF(0, []byte("a"), []byte("1"))
	cf0.DeleteCF(0, []byte("b"))
	cf0.MergeCF(0, []byte("c"), []byte("2"))
	cf0.DeleteRangeCF(0, []byte("d"), []byte("e"))
	if !bytes.Equal(plain.Repr(), cf0.Repr()) || cf0.HasOtherFamilies() {
		t.Fatalf("default-family records encode to % x, plain ones to % x", cf0.Repr(), plain.Repr())
	}
	b.Reset()
	if b.HasOtherFamilies() {
		t.Fatal("Reset keeps the other-families mark")
	}
}

// TestBatchFamilyRoundTrip reads every kind back with its family.
func TestBatchFamilyRoundTrip(t *testing.T) {
	type rec struct {
		family     uint32
		kind       base.Kind
		key, value string
	}
	recs := []rec{
		{7, base.KindSet, "a", "1"},
		{0, base.KindSet, "b", "2"},
		{1 << 20, base.KindDelete, "c", ""},
		{2, base.KindMerge, "d", "+1"},
		{1<<32 - 1, base.KindRangeDelete, "e", "f"},
		{0, base.KindDelete, "g", ""},
	}
	b := NewBatch()
	for _, r := range recs {
		switch r.kind {
		case base.KindSet:
			b.PutCF(r.family, []byte(r.key), []byte(r.value))
		case base.KindDelete:
			b.DeleteCF(r.family, []byte(r.key))
		case base.KindMerge:
			b.MergeCF(r.family, []byte(r.key), []byte(r.value))
		case base.KindRangeDelete:
			b.DeleteRangeCF(r.family, []byte(r.key), []byte(r.value))
		}
	}
	b.setSeq(40)
	br, err := newBatchReader(b.Repr())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		kind, key, value, seq, ok, err := br.next()
		if err != nil || !ok {
			t.Fatalf("record %d: ok %v, err %v", i, ok, err)
		}
		got := rec{br.family, kind, string(key), string(value)}
		if got != r || seq != 40+uint64(i) {
			t.Fatalf("record %d is %+v at %d, want %+v at %d", i, got, seq, r, 40+i)
		}
	}
	if _, _, _, _, ok, err := br.next(); ok || err != nil {
		t.Fatalf("after the last record: ok %v, err %v", ok, err)
	}
}

// TestBatchFamilyCorrupt refuses a family id that is cut short or too
// large for 32 bits.
func TestBatchFamilyCorrupt(t *testing.T) {
	header := []byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}
	for name, rec := range map[string][]byte{
		"truncated id": {batchKindFamilySet, 0x80},
		"id too large": {batchKindFamilySet, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 'k', 1, 'v'},
		"no key":       {batchKindFamilyDelete, 0x01},
	} {
		if _, _, err := validateBatch(append(append([]byte(nil), header...), rec...)); !errors.Is(err, ErrCorruptBatch) {
			t.Errorf("%s: err %v, want ErrCorruptBatch", name, err)
		}
	}
}

// TestWriteRefusesUnknownFamily: a batch naming a family the DB does not
// have is refused whole, in RocksDB's words, and the DB takes writes
// after it.
func TestWriteRefusesUnknownFamily(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	b := NewBatch()
	b.Put([]byte("a"), []byte("1"))
	b.PutCF(1, []byte("b"), []byte("2"))
	if err := db.Write(b, WriteOptions{}); err == nil || err.Error() != "Invalid argument: Invalid column family specified in write batch" {
		t.Fatalf("Write = %v, want RocksDB's invalid column family error", err)
	}
	if _, ok := getString(t, db, "a"); ok {
		t.Fatal("a refused batch wrote its default-family record")
	}
	b.Reset()
	b.Put([]byte("a"), []byte("1"))
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if v, ok := getString(t, db, "a"); !ok || v != "1" {
		t.Fatalf("a = %q, %v after a good write", v, ok)
	}
}

// TestWALReplaySkipsUnknownFamily: recovery applies a WAL's default-family
// records and skips those of a family the DB does not have (RocksDB's
// recovery skips a dropped family's records so), while their sequence
// numbers stay used.
func TestWALReplaySkipsUnknownFamily(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	b := NewBatch()
	b.Put([]byte("a"), []byte("1"))
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	b.Reset()
	b.Put([]byte("b"), []byte("2"))
	b.PutCF(4, []byte("c"), []byte("3"))
	b.DeleteCF(4, []byte("a"))
	b.setSeq(2)
	f, err := os.Create(walName(dir, 1000))
	if err != nil {
		t.Fatal(err)
	}
	w := wal.NewWriter(f)
	w.AddRecord(b.Repr())
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	db = mustOpen(t, dir, testOptions())
	defer db.Close()
	for key, want := range map[string]string{"a": "1", "b": "2", "c": ""} {
		if v, ok := getString(t, db, key); v != want || ok != (want != "") {
			t.Errorf("%s = %q, %v after replay, want %q", key, v, ok, want)
		}
	}
	db.mu.Lock()
	last := db.mu.lastSeq
	db.mu.Unlock()
	if last != 4 {
		t.Errorf("last sequence after replay is %d, want 4 (the skipped records' numbers stay used)", last)
	}
}
