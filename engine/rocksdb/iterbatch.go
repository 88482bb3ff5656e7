//go:build rocksdb

package rocksdb

/*
#include <rocksdb/c.h>
#include "shim.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

// Batched iteration. A step through cgo costs a fixed ~30-60 ns crossing
// (runtime.cgocall, entersyscall/exitsyscall), which on a readseq of 116-byte
// entries was a quarter of the step (perf: reentersyscall 4.5%, exitsyscall
// 4.0%, cgo glue ~5%). A long run of steps in one direction is therefore
// served from a stepBatch: one gdb_iter_fill call moves the RocksDB iterator
// up to maxBatchEntries times and copies each entry it reaches into the
// batch (RocksDB's key()/value() slices are only valid until the next move,
// so the entries must be copied; ReadOptions.pin_data would avoid the copy
// but keeps every block of a scan pinned until the iterator is closed). A
// copy of 116 bytes costs ~5-10 ns, well under the crossing it saves.
//
// Fetching ahead has a price when the caller stops early: entries fetched
// and never used cost a RocksDB Next each (~150-300 ns with Debian's
// assertion-enabled build). So a run starts with single steps and the fill
// size grows with the run: a fill asks for run/fillDivisor entries, which
// bounds the entries fetched in vain by 1/fillDivisor of the steps already
// taken (12.5%), while a full scan reaches maxBatchEntries per crossing
// after ~1000 steps. seekrandom with the default --seek_nexts=0 never fills.

const (
	// maxBatchEntries caps one fill: 128 entries of 116 B is 15 KiB, the
	// crossing is then ~0.3-0.5 ns per entry.
	maxBatchEntries = 128
	// fillDivisor sets the fill size to run/fillDivisor entries; below 2
	// a step is a single move.
	fillDivisor = 8
	// batchBufBytes is the initial copy buffer: room for maxBatchEntries
	// entries of db_bench's default shape (16 B keys, 100 B values).
	batchBufBytes = 16 << 10
)

// stepBatch holds entries copied by one gdb_iter_fill call, in the order
// the RocksDB iterator reached them.
type stepBatch struct {
	ents [maxBatchEntries]C.gdb_entry
	data []byte
}

// batchPool recycles stepBatches across iterators: db_bench's seekrandom
// opens an iterator per operation, so a batch is taken only once a run is
// long enough to fill, and given back on Close.
var batchPool = sync.Pool{New: func() any { return &stepBatch{data: make([]byte, batchBufBytes)} }}

// fillSize is the number of entries to fetch for a run of run steps, or 0
// for a single step.
func fillSize(run int) int {
	n := run / fillDivisor
	if n < 2 {
		return 0
	}
	return min(n, maxBatchEntries)
}

// fill moves the RocksDB iterator in direction d up to want times (stepFirst:
// move before copying; otherwise the current, pending entry is copied
// first), copies what it reaches into it.batch and makes the first copied
// entry current.
func (it *iterator) fill(d int, stepFirst bool, want int) bool {
	b := it.batch
	if b == nil {
		b = batchPool.Get().(*stepBatch)
		it.batch = b
	}
	how := C.int(C.GDB_NEXT)
	if d < 0 {
		how = C.GDB_PREV
	}
	var r C.gdb_fill_result
	for {
		r = C.gdb_iter_fill(it.it, how, boolInt(stepFirst), it.withValue,
			(*C.char)(unsafe.Pointer(&b.data[0])), C.size_t(len(b.data)), &b.ents[0], C.size_t(want))
		if r.n > 0 || r.need == 0 {
			break
		}
		// The entry is larger than the whole buffer: grow it and copy the
		// entry, which stays current, without moving.
		b.data = make([]byte, max(2*len(b.data), int(r.need)))
		stepFirst = false
	}
	it.run += int(r.n)
	it.under = int(r.state)
	if r.n == 0 {
		it.buffered = false
		it.clear()
		return false
	}
	it.buffered = true
	it.fillDir = d
	it.n = int(r.n)
	it.pos = 0
	it.load()
	return true
}

// load makes batch entry it.pos current.
func (it *iterator) load() {
	e := &it.batch.ents[it.pos]
	off, kl, vl := int(e.off), int(e.klen), int(e.vlen)
	d := it.batch.data
	it.key = d[off : off+kl : off+kl]
	it.value = d[off+kl : off+kl+vl : off+kl+vl]
	it.valueReady = it.withValue != 0
	it.valid = true
}

// maxPooledBufBytes bounds the buffer a pooled batch keeps: a scan of
// large values grows its buffer to the largest entry, which should not stay
// alive for every later iterator.
const maxPooledBufBytes = 1 << 20

// releaseBatch gives the batch back to the pool.
func (it *iterator) releaseBatch() {
	if it.batch != nil {
		if len(it.batch.data) <= maxPooledBufBytes {
			batchPool.Put(it.batch)
		}
		it.batch = nil
	}
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
