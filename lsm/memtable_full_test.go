package lsm

import (
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/memtable"
)

// sizedRep is a rep that reports a set memory usage; full calls nothing else.
type sizedRep struct {
	memtable.Rep
	usage uint64
}

func (r *sizedRep) ApproximateMemoryUsage() uint64 { return r.usage }

// TestMemtableFullCountsMemory: a memtable is full when the memory it holds
// (rep, key filter, range tombstones) reaches write_buffer_size and its
// logical size is at least half of it, or when its logical size reaches
// memLogicalBackstop times the buffer; the logical size alone below that
// never switches it.
func TestMemtableFullCountsMemory(t *testing.T) {
	const limit = 1 << 20
	for _, c := range []struct {
		name           string
		logical, usage uint64
		want           bool
	}{
		{"empty", 0, 0, false},
		{"chunk bigger than the buffer, little written", limit/2 - 1, 10 * limit, false},
		{"half written, memory under", limit / 2, limit - 1, false},
		{"half written, memory at the buffer", limit / 2, limit, true},
		{"logical past the buffer, memory under", 2 * limit, limit - 1, false},
		{"logical under the backstop, no memory reported", memLogicalBackstop*limit - 1, 0, false},
		{"logical at the backstop", memLogicalBackstop * limit, 0, true},
	} {
		m := &memTable{rep: &sizedRep{usage: c.usage}, limit: limit, logical: c.logical}
		if got := m.full(); got != c.want {
			t.Errorf("%s: full() = %v with logical %d, rep memory %d; want %v", c.name, got, c.logical, c.usage, c.want)
		}
	}

	// The key filter and the range tombstones count with the rep.
	bloom := newMemBloom(8*4096, true)
	m := &memTable{rep: &sizedRep{usage: limit - bloom.bytes()}, limit: limit, logical: limit, bloom: bloom}
	if !m.full() {
		t.Errorf("rep %d bytes + filter %d bytes = the buffer, not full", limit-bloom.bytes(), bloom.bytes())
	}
	m = &memTable{rep: &sizedRep{usage: limit - 100}, limit: limit, logical: limit}
	if m.full() {
		t.Fatal("full 100 bytes under the buffer")
	}
	m.rangeDels.add(make([]byte, 60), make([]byte, 60), 1)
	if got := m.rangeDels.memoryUsage(); got < 120 {
		t.Errorf("a tombstone of two 60-byte keys counts %d bytes, want at least 120", got)
	}
	if !m.full() {
		t.Error("not full with a 120-byte tombstone added 100 bytes under the buffer")
	}
}

// TestMemtableSwitchesAtItsMemory: db_bench's default entry (16-byte key,
// 100-byte value, one a batch) into a 4 MiB write buffer with the default
// skiplist. The memtable switches at the first write that finds it holding
// write_buffer_size bytes of memory, and not before: its logical size (171
// bytes an entry) passes the buffer a fifth of the way earlier, where the
// switch used to come.
func TestMemtableSwitchesAtItsMemory(t *testing.T) {
	o := testOptions()
	o.WriteBufferSize = 4 << 20
	o.Level0FileNumCompactionTrigger = 4
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	limit := uint64(o.WriteBufferSize)
	current := func() *memTable {
		db.mu.Lock()
		defer db.mu.Unlock()
		return db.def.mem
	}
	mem := current()
	key, value := make([]byte, 16), make([]byte, 100)
	b := NewBatch()
	var logicalPassed int // the write at which the logical size passed the buffer
	for i := 1; ; i++ {
		held := mem.memoryUsage()
		// Keys in scattered order, as fillrandom writes them.
		binary.BigEndian.PutUint64(key, uint64(i)*0x9E3779B97F4A7C15)
		b.Reset()
		b.Put(key, value)
		if err := db.Write(b, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		// A single-entry batch adds its size plus memEntryOverhead to the
		// logical size (171 bytes here).
		if logicalPassed == 0 && uint64(i)*(uint64(b.Size())+memEntryOverhead) >= limit {
			logicalPassed = i
		}
		next := current()
		if next == mem {
			if held >= limit {
				t.Fatalf("write %d found the memtable holding %d bytes of a %d-byte buffer and did not switch it", i, held, limit)
			}
			continue
		}
		if held < limit {
			t.Fatalf("write %d switched the memtable holding %d bytes of a %d-byte buffer (%d entries)", i, held, limit, i-1)
		}
		if i-1 < logicalPassed*11/10 {
			t.Fatalf("switched after %d entries; the logical size passed the buffer at %d", i-1, logicalPassed)
		}
		t.Logf("switched after %d entries, %d bytes held (%.1f an entry); logical size passed the buffer at %d",
			i-1, held, float64(held)/float64(i-1), logicalPassed)
		return
	}
}
