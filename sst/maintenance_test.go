package sst

import (
	"errors"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

func TestApproximateOffsetOf(t *testing.T) {
	es := sequentialEntries(5000)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 4096})
	r := openTable(t, path, ReaderOptions{})
	defer r.Close()
	if got := r.ApproximateOffsetOf([]byte("a")); got != 0 {
		t.Errorf("offset of a key before the table: %d, want 0", got)
	}
	end := r.ApproximateOffsetOf([]byte("z"))
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if end == 0 || end >= uint64(st.Size()) {
		t.Errorf("offset past the last key: %d, want the end of the data blocks, inside the %d-byte file", end, st.Size())
	}
	mid := r.ApproximateOffsetOf(es[2500].key)
	if mid == 0 || mid >= end {
		t.Errorf("offset of the middle key: %d, want strictly between 0 and %d", mid, end)
	}
	// Offsets never decrease with the key.
	prev := uint64(0)
	for i := 0; i < len(es); i += 97 {
		off := r.ApproximateOffsetOf(es[i].key)
		if off < prev {
			t.Fatalf("offset of %s is %d, below %d of an earlier key", es[i].key, off, prev)
		}
		prev = off
	}
}

func TestVerifyBlocksFindsEveryDamagedDataByte(t *testing.T) {
	es := sequentialEntries(2000)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 4096})
	r := openTable(t, path, ReaderOptions{})
	if err := r.VerifyBlocks(); err != nil {
		t.Fatalf("intact table: %v", err)
	}
	end := r.ApproximateOffsetOf([]byte("z"))
	r.Close()
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		off := rng.Uint64N(end)
		b := append([]byte(nil), orig...)
		b[off] ^= 0x01
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		r := openTable(t, path, ReaderOptions{})
		err := r.VerifyBlocks()
		r.Close()
		if !errors.Is(err, ErrCorruption) {
			t.Fatalf("byte %d of the data blocks flipped: VerifyBlocks gave %v, want a corruption", off, err)
		}
	}
}

func TestCacheEntriesCountsCachedBlocks(t *testing.T) {
	es := sequentialEntries(2000)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 4096})
	c := NewCache(4<<20, 0)
	r := openTable(t, path, ReaderOptions{Cache: c, FileNum: 1})
	defer r.Close()
	if e := c.Entries(); e.DataBlocks != 0 || e.DataBytes != 0 {
		t.Fatalf("a fresh cache holds %+v", e)
	}
	for _, e := range es {
		if _, err := r.Get(e.key, 1<<40, func([]byte, base.Kind, uint64) {}); err != nil {
			t.Fatal(err)
		}
	}
	e := c.Entries()
	// Every key and value block was read once: two cached blocks per pair.
	if want := 2 * r.blocks.len(); e.DataBlocks != want {
		t.Errorf("DataBlocks = %d, want %d (a key and a value block per index entry)", e.DataBlocks, want)
	}
	if e.DataBytes != c.Usage() || e.Slots < e.DataBlocks {
		t.Errorf("DataBytes %d (usage %d), Slots %d for %d blocks", e.DataBytes, c.Usage(), e.Slots, e.DataBlocks)
	}
}
