//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <string.h>
#include <rocksdb/c.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"unsafe"

	"github.com/godbbench/godbbench/engine"
)

// iterator is an engine.Iterator over a rocksdb_iterator_t. It has two
// modes. Direct: the current entry is the RocksDB iterator's, each move is
// one cgo call that also returns the key and (unless the options say keys
// only) the value, and Key/Value alias RocksDB's buffers. Buffered: after a
// run of steps in one direction, entries come from a stepBatch filled by one
// call for many steps (iterbatch.go), and Key/Value alias the batch. Either
// way the bytes stay valid until the iterator moves, and nothing is
// allocated per step.
type iterator struct {
	it    *C.rocksdb_iterator_t
	ro    *C.rocksdb_readoptions_t
	lower *C.char // C copy of the lower bound, owned; RocksDB keeps a pointer
	upper *C.char // C copy of the upper bound, owned

	withValue  C.int // 1: read values with keys; 0: IterOptions.KeysOnly
	key        []byte
	value      []byte
	valueReady bool // value holds the current entry's value
	valid      bool

	// dir (+1 forward, -1 backward) and run (steps taken in dir since the
	// last positioning) choose between single moves and fills.
	dir int
	run int

	batch    *stepBatch // nil until the first fill
	buffered bool       // the current entry is batch entry pos
	fillDir  int        // direction the batch was filled in
	pos, n   int        // current entry and entry count of the batch
	under    int        // the RocksDB iterator after the fill: C.GDB_FILL_*

	// scanning: scanSizes has run (only scanSizes may follow); scanEnded:
	// it ran off the end, so the RocksDB iterator is invalid.
	scanning, scanEnded bool
}

var _ engine.Iterator = (*iterator)(nil)

// NewIter implements engine.DB.
func (d *DB) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	return d.newIter(o, d.cf)
}

// newIter is an iterator over column family cf.
func (d *DB) newIter(o *engine.IterOptions, cf *C.rocksdb_column_family_handle_t) (engine.Iterator, error) {
	if d.db == nil {
		return nil, errClosed
	}
	it := &iterator{withValue: 1}
	it.ro = d.newReadOptions()
	if o != nil {
		if o.KeysOnly {
			it.withValue = 0
		}
		if o.Tailing {
			C.rocksdb_readoptions_set_tailing(it.ro, 1)
		}
		// rocksdb_readoptions_set_iterate_*_bound keeps a Slice pointing at
		// the bytes, so they live in C memory until Close.
		if o.LowerBound != nil {
			it.lower = cCopy(o.LowerBound)
			C.rocksdb_readoptions_set_iterate_lower_bound(it.ro, it.lower, C.size_t(len(o.LowerBound)))
		}
		if o.UpperBound != nil {
			it.upper = cCopy(o.UpperBound)
			C.rocksdb_readoptions_set_iterate_upper_bound(it.ro, it.upper, C.size_t(len(o.UpperBound)))
		}
	}
	it.it = C.rocksdb_create_iterator_cf(d.db, it.ro, cf)
	return it, nil
}

// cCopy copies b into malloc'd memory (at least one byte, so an empty bound
// still gets a valid pointer).
func cCopy(b []byte) *C.char {
	p := (*C.char)(C.malloc(C.size_t(len(b) + 1)))
	if len(b) > 0 {
		C.memcpy(unsafe.Pointer(p), unsafe.Pointer(&b[0]), C.size_t(len(b)))
	}
	return p
}

// set makes the RocksDB iterator's position p current (direct mode).
func (it *iterator) set(p C.gdb_iter_pos) bool {
	it.buffered = false
	it.valid = p.valid != 0
	if !it.valid {
		it.clear()
		return false
	}
	it.key = goBytes(p.key, p.len)
	it.valueReady = it.withValue != 0
	if it.valueReady {
		it.value = goBytes(p.val, p.vlen)
	}
	return true
}

func (it *iterator) clear() {
	it.valid = false
	it.valueReady = false
	it.key = nil
	it.value = nil
}

// positioned starts a new run after a seek.
func (it *iterator) positioned(valid bool) bool {
	it.dir, it.run = 0, 0
	it.scanning, it.scanEnded = false, false
	return valid
}

func (it *iterator) First() bool {
	return it.positioned(it.set(C.gdb_iter_move(it.it, C.GDB_FIRST, it.withValue)))
}

func (it *iterator) Last() bool {
	return it.positioned(it.set(C.gdb_iter_move(it.it, C.GDB_LAST, it.withValue)))
}

func (it *iterator) SeekGE(key []byte) bool {
	return it.positioned(it.set(C.gdb_iter_seek(it.it, bytesPtr(key), C.size_t(len(key)), it.withValue)))
}

func (it *iterator) SeekLE(key []byte) bool {
	return it.positioned(it.set(C.gdb_iter_seek_for_prev(it.it, bytesPtr(key), C.size_t(len(key)), it.withValue)))
}

func (it *iterator) Next() bool  { return it.step(1) }
func (it *iterator) Prev() bool  { return it.step(-1) }
func (it *iterator) Valid() bool { return it.valid }
func (it *iterator) Key() []byte { return it.key }

// step moves one entry in direction d. An invalid iterator stays invalid
// (RocksDB asserts Valid() in Next and Prev).
func (it *iterator) step(d int) bool {
	if !it.valid {
		return false
	}
	if it.buffered {
		if d == it.fillDir {
			if it.pos+1 < it.n {
				it.pos++
				it.load()
				return true
			}
			switch it.under {
			case C.GDB_FILL_END:
				it.buffered = false
				it.clear()
				return false
			case C.GDB_FILL_PENDING:
				return it.fill(d, false, max(fillSize(it.run), 1))
			}
			return it.fill(d, true, max(fillSize(it.run), 1))
		}
		if it.pos > 0 {
			it.pos--
			it.load()
			return true
		}
		// Leaving the batch against its fill direction: the RocksDB
		// iterator is elsewhere, so bring it back to the current key.
		if !it.reposition() {
			return false
		}
	}
	if d == it.dir {
		it.run++
	} else {
		it.dir, it.run = d, 1
	}
	if want := fillSize(it.run); want > 0 {
		return it.fill(d, true, want)
	}
	how := C.int(C.GDB_NEXT)
	if d < 0 {
		how = C.GDB_PREV
	}
	return it.set(C.gdb_iter_move(it.it, how, it.withValue))
}

// reposition seeks the RocksDB iterator to the current (buffered) key and
// returns to direct mode there. The key exists in the iterator's implicit
// snapshot, so the seek lands on it.
func (it *iterator) reposition() bool {
	k := it.key
	return it.positioned(it.set(C.gdb_iter_seek(it.it, bytesPtr(k), C.size_t(len(k)), it.withValue)))
}

// Value implements engine.Iterator. With IterOptions.KeysOnly the value is
// read on demand (one more call, and a seek when the key came from a batch).
func (it *iterator) Value() ([]byte, error) {
	if !it.valid {
		return nil, nil
	}
	if it.valueReady {
		return it.value, nil
	}
	if it.buffered && !it.reposition() {
		return nil, it.Error()
	}
	v := C.gdb_iter_value(it.it)
	it.value = goBytes(v.data, v.len)
	it.valueReady = true
	return it.value, nil
}

// scanSizes is DB.ScanRun (engine.Runner): n Next calls and the key and
// value lengths in one cgo call, nothing copied. db_bench's readseq only
// counts the bytes it passes, which C++ db_bench does inline; see
// BENCHMARKS.md for what the batched copy cost against it. The Go-side
// position (Key, Value) is cleared: only scanSizes, Error and Close
// follow.
func (it *iterator) scanSizes(n int, stepFirst bool, doneNs []int64) (int, int64, bool, error) {
	switch {
	case stepFirst && !it.scanning, !stepFirst && it.buffered:
		return 0, 0, false, errors.New("rocksdb: ScanRun needs a freshly positioned iterator")
	case !stepFirst && !it.valid, stepFirst && it.scanEnded:
		// Nothing to count; RocksDB must not move an invalid iterator
		// (Debian's build asserts).
		return 0, 0, false, nil
	}
	rc := startRunClock(doneNs)
	r := C.gdb_iter_sum(it.it, C.size_t(max(n, 0)), boolInt(stepFirst), it.withValue, timesPtr(doneNs), rc.ticking())
	rc.finish(doneNs, int(r.count))
	it.clear()
	it.dir, it.run = 0, 0
	it.scanning, it.scanEnded = true, r.more == 0
	if r.more == 0 {
		if err := it.Error(); err != nil {
			return int(r.count), int64(r.bytes), false, err
		}
	}
	return int(r.count), int64(r.bytes), r.more != 0, nil
}

func (it *iterator) Error() error {
	if it.it == nil {
		return nil
	}
	return cError(C.gdb_iter_error(it.it))
}

func (it *iterator) Close() error {
	if it.it == nil {
		return nil
	}
	err := it.Error()
	it.releaseBatch()
	C.rocksdb_iter_destroy(it.it)
	C.rocksdb_readoptions_destroy(it.ro)
	if it.lower != nil {
		C.free(unsafe.Pointer(it.lower))
	}
	if it.upper != nil {
		C.free(unsafe.Pointer(it.upper))
	}
	*it = iterator{}
	return err
}
