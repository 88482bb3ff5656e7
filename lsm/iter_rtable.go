package lsm

import (
	"encoding/binary"
	"runtime/debug"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/mmapfault"
	"github.com/godbbench/godbbench/rtable"
)

// rtableIter adapts an rtable.Iter to internalIter so that no read of the
// table's mapping happens outside the fault guard (fault.go), at a cost
// per batch of entries, not per entry.
//
// An rtable.Iter reads its table in place on every Key, Seq, Kind and
// Value and hands out keys and values in place, so a table file truncated
// under it faults wherever those bytes are read: in the iterator, in the
// merging iterator's comparisons, in the DB iterator and in its caller.
// A guard costs about 15 ns (two runtime calls, a deferred call and a
// recover; lsm/fault.go), as much as a whole step of a scan, so
// rtableIter does not guard each call. It copies a batch of consecutive
// entries in the walk's direction (keys, sequence numbers and kinds, and
// the values unless the walk is KeysOnly) out of the mapping under one
// guard, and serves the moves, Key, Seq, Kind and Value from the copies,
// which never fault. The rtable.Iter stays on the batch's last entry.
//
// A batch without values from a table whose entries share one trailer
// (rtable.Reader.Uniform: a bottommost table at sequence 0) holds the
// keys alone (rtable.AppendKeys), and a step decodes a key by slicing;
// such batches grow to rtableBareBatchMax entries.
//
// A positioning (First, Last, SeekGE, SeekLT) copies one entry, without
// its value, which a seek often never asks for (db_bench's seekrandom
// does not); each later refill copies twice as many entries as the one
// before, up to rtableBatchMax entries or rtableBatchBytes bytes, so a
// seek that reads one entry copies one key, and a scan pays one guard
// per 64 entries.
//
// A fault fails the call that met it: the iterator is invalid with Error
// set to an ErrCorruption error naming the table, until the next
// positioning. An error loading a value is the error of that entry's
// Value only (as rtable.Iter's is), so a hidden version whose value is
// damaged does not fail a scan that never asks for it; the batch ends at
// that entry.
type rtableIter struct {
	r  *rtable.Reader
	it *rtable.Iter // made by the first positioning, under the guard
	// keysOnly: Value is not expected, so refills skip the values (and
	// the walk never touches a value page); a Value call then reads the
	// one value under its own guard.
	keysOnly bool
	reverse  bool
	// batch holds the copied entries in walk order, one record each: the
	// rtable's batch record (rtable.AppendBatch): the trailer, the key
	// and value lengths, the key and the value bytes; or, when bare is
	// not 0, the keys alone, bare bytes each (rtable.AppendKeys).
	batch []byte
	// bare is the key length of a batch of bare keys, 0 for records.
	// Every entry of the batch then has the trailer uniform.
	bare int
	// uniform and uniformLen are the table's one trailer and key length
	// when it has them (rtable.Reader.Uniform; uniformLen 0: it has not):
	// a batch without values is then one of bare keys.
	uniform    base.Trailer
	uniformLen int
	// off is the offset of the record after the current one, left the
	// number of records from there to the batch's end.
	off, left int
	// hasVals says the batch holds the values.
	hasVals bool
	// The current entry, decoded from its record.
	key, value []byte
	trailer    base.Trailer
	valid      bool
	// valErr is the error loading the value of the batch's last record
	// (the batch ends at an entry whose value failed).
	valErr error
	// next is the size of the next refill; done says the rtable.Iter has
	// no entry past the batch in the walk's direction.
	next int
	done bool
	err  error
	// first is the batch's storage until a refill outgrows it, so that a
	// seek that copies one entry allocates nothing more.
	first [160]byte
}

// rtableBareBatchMax is rtableBatchMax for batches of bare keys: 4 KiB of
// 8-byte keys, which spreads a refill's fixed cost (the guard, the
// rtable.Iter's setup) over more keys than 64 would.
const (
	rtableBatchMax     = 64
	rtableBareBatchMax = 512
	rtableBatchBytes   = 32 << 10
)

// stepOn is the mode of fill that continues the walk from the rtable.Iter's
// current entry instead of positioning it.
const stepOn = ^seekMode(0)

// reset makes t an unpositioned iterator over r, keeping t's buffers.
// The rtable.Iter is made by the first positioning, under its guard:
// rtable.Reader.NewIter reads the mapping (the keys' common prefix and
// suffix).
func (t *rtableIter) reset(r *rtable.Reader, keysOnly bool) {
	if t.it != nil {
		t.it.Close()
	}
	t.r, t.it, t.keysOnly = r, nil, keysOnly
	t.valid, t.left, t.err = false, 0, nil
	t.uniformLen = 0
	if trailer, keyLen, ok := r.Uniform(); ok {
		t.uniform, t.uniformLen = trailer, keyLen
	}
	if t.batch == nil {
		t.batch = t.first[:0]
	}
}

func (t *rtableIter) First() bool { return t.position(seekFirst, nil) }
func (t *rtableIter) Last() bool  { return t.position(seekLast, nil) }
func (t *rtableIter) SeekGE(key []byte) bool {
	return t.position(seekGE, key)
}
func (t *rtableIter) SeekLT(key []byte) bool {
	return t.position(seekLT, key)
}

// position runs a positioning of the rtable.Iter and copies the entry it
// lands on.
func (t *rtableIter) position(mode seekMode, key []byte) bool {
	t.reverse = mode == seekLast || mode == seekLT
	t.next, t.done, t.err = 1, false, nil
	return t.fill(mode, key)
}

func (t *rtableIter) Next() bool { return t.step() }
func (t *rtableIter) Prev() bool { return t.step() }

// step moves one entry in the walk's direction, refilling the batch when
// it is used up.
func (t *rtableIter) step() bool {
	if t.left > 0 {
		t.decode()
		return true
	}
	if !t.valid || t.done {
		t.valid = false
		return false
	}
	return t.fill(stepOn, nil)
}

// decode makes the record at t.off the current entry.
func (t *rtableIter) decode() {
	if kl := t.bare; kl > 0 {
		t.key = t.batch[t.off : t.off+kl : t.off+kl]
		t.off += kl
		t.left--
		return
	}
	b := t.batch[t.off:]
	t.trailer = base.Trailer(binary.LittleEndian.Uint64(b))
	kl := int(binary.LittleEndian.Uint32(b[8:]))
	vl := int(binary.LittleEndian.Uint32(b[12:]))
	b = b[rtable.BatchRecordHeader:]
	t.key, t.value = b[:kl:kl], b[kl:kl+vl:kl+vl]
	t.off += rtable.BatchRecordHeader + kl + vl
	t.left--
}

// fill replaces the batch with up to t.next entries: the one a positioning
// (mode, key) lands on and those after it, or (stepOn) the entries after
// the rtable.Iter's current one, and makes the first of them current. The
// rtable.Iter is read under the fault guard, and a fault empties the
// batch and becomes t.err.
func (t *rtableIter) fill(mode seekMode, key []byte) bool {
	t.batch, t.off, t.left, t.valErr = t.batch[:0], 0, 0, nil
	t.hasVals = !t.keysOnly && mode == stepOn
	t.bare = 0
	if !t.hasVals && t.uniformLen > 0 {
		t.bare, t.trailer, t.value = t.uniformLen, t.uniform, nil
	}
	if err := t.copyBatch(mode, key); err != nil {
		t.err = err
		t.valid, t.left = false, 0
		return false
	}
	if t.bare > 0 {
		t.next = min(2*t.next, rtableBareBatchMax)
	} else {
		t.next = min(2*t.next, rtableBatchMax)
	}
	t.valid = t.left > 0
	if t.valid {
		t.decode()
	}
	return t.valid
}

// copyBatch is fill's guarded part: it appends the records, in one
// rtable.Iter.AppendBatch call, and counts them in t.left. The rtable.Iter
// stays on the batch's last entry.
func (t *rtableIter) copyBatch(mode seekMode, key []byte) (err error) {
	defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
	if t.it == nil {
		t.it = t.r.NewIter()
	}
	var ok bool
	if mode == stepOn {
		ok = t.move()
	} else {
		ok = positionBy(t.it, mode, key)
	}
	if !ok {
		t.done = true
		return t.it.Error()
	}
	var more bool
	o := rtable.BatchOptions{MaxEntries: t.next, MaxBytes: rtableBatchBytes, Reverse: t.reverse, Values: t.hasVals}
	if t.bare > 0 {
		t.batch, t.left, more = t.it.AppendKeys(t.batch, o)
	} else {
		t.batch, t.left, more, t.valErr = t.it.AppendBatch(t.batch, o)
	}
	t.done = !more
	return nil
}

// move steps the rtable.Iter in the walk's direction.
func (t *rtableIter) move() bool {
	if t.reverse {
		return t.it.Prev()
	}
	return t.it.Next()
}

func (t *rtableIter) Key() []byte     { return t.key }
func (t *rtableIter) Seq() uint64     { return t.trailer.Seq() }
func (t *rtableIter) Kind() base.Kind { return t.trailer.Kind() }
func (t *rtableIter) Error() error    { return t.err }

// Value returns the current entry's value: the batch's copy, or the value
// loaded alone, under the guard (a KeysOnly walk, or the entry a
// positioning landed on).
func (t *rtableIter) Value() ([]byte, error) {
	if t.left == 0 && t.valErr != nil {
		return nil, t.valErr
	}
	if t.hasVals {
		return t.value, nil
	}
	return t.loadValue()
}

// loadValue copies the current entry's value past the end of the batch's
// records (where the next refill overwrites it): the rtable.Iter steps
// back from the batch's last entry to it (a move is arithmetic on its
// ordinal), loads it and steps forth again.
func (t *rtableIter) loadValue() (value []byte, err error) {
	defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
	back := t.left
	for range back {
		t.moveBack()
	}
	v, err := t.it.Value()
	n := len(t.batch)
	value = append(t.batch, v...)[n:]
	for range back {
		t.move()
	}
	return value, err
}

// moveBack steps the rtable.Iter against the walk's direction.
func (t *rtableIter) moveBack() bool {
	if t.reverse {
		return t.it.Next()
	}
	return t.it.Prev()
}

func (t *rtableIter) Close() error {
	if t.it != nil {
		t.it.Close()
		t.it = nil
	}
	return t.err
}
