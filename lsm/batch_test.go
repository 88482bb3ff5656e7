package lsm

import (
	"bytes"
	"errors"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

func TestBatchEncoding(t *testing.T) {
	b := NewBatch()
	b.Put([]byte("k1"), []byte("v1"))
	b.Delete([]byte("k2"))
	b.setSeq(100)
	want := []byte{100, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
		1, 2, 'k', '1', 2, 'v', '1',
		0, 2, 'k', '2'}
	if !bytes.Equal(b.Repr(), want) {
		t.Fatalf("encoding\n got % x\nwant % x", b.Repr(), want)
	}
	r, err := newBatchReader(b.Repr())
	if err != nil {
		t.Fatal(err)
	}
	kind, key, val, seq, ok, err := r.next()
	if err != nil || !ok || kind != base.KindSet || string(key) != "k1" || string(val) != "v1" || seq != 100 {
		t.Fatalf("first record: %v %q %q %d %v %v", kind, key, val, seq, ok, err)
	}
	kind, key, _, seq, ok, err = r.next()
	if err != nil || !ok || kind != base.KindDelete || string(key) != "k2" || seq != 101 {
		t.Fatalf("second record: %v %q %d %v %v", kind, key, seq, ok, err)
	}
	if _, _, _, _, ok, err = r.next(); ok || err != nil {
		t.Fatalf("end: %v %v", ok, err)
	}
	b.Reset()
	if b.Count() != 0 || b.Size() != batchHeaderSize {
		t.Fatal("reset did not empty the batch")
	}
}

func TestBatchCorrupt(t *testing.T) {
	b := NewBatch()
	b.Put([]byte("key"), []byte("value"))
	repr := b.Repr()
	for i := 0; i < len(repr); i++ {
		if _, _, err := validateBatch(repr[:i]); !errors.Is(err, ErrCorruptBatch) {
			t.Fatalf("truncated to %d: %v", i, err)
		}
	}
}

func TestBatchPutNoAlloc(t *testing.T) {
	b := NewBatch()
	k, v := make([]byte, 16), make([]byte, 100)
	allocs := testing.AllocsPerRun(100, func() {
		b.Reset()
		b.Put(k, v)
		b.Delete(k)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per reuse", allocs)
	}
}

func FuzzBatchDecode(f *testing.F) {
	b := NewBatch()
	b.Put([]byte("a"), []byte("b"))
	b.Delete([]byte("c"))
	f.Add(append([]byte(nil), b.Repr()...))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = validateBatch(data)
	})
}
