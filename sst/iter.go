package sst

import (
	"fmt"

	"github.com/godbbench/godbbench/internal/base"
)

// Iter walks all entries of a table (every version) in internal-key order:
// user key ascending, then seq descending. Values are loaded lazily: moving
// reads key blocks only, and Value reads the current block's value block on
// first use. An Iter is used by one goroutine at a time.
type Iter struct {
	r     *Reader
	it    blockIter
	blk   int // current block; -1 before the first, len(blocks) after the last
	kh    cacheHandle
	vh    cacheHandle
	vdata []byte
	vblk  int // block whose value block is in vdata, -1 if none
	// Scratch for blocks read without the cache.
	keyBuf, valueBuf, tmp []byte
	// bufs is the pool entry the scratch buffers came from (nil once
	// returned by Close; iter_buffers.go).
	bufs *iterBuffers
	// pair holds whole pairs once values have been asked for, or once key
	// blocks have been loaded in a run (scan.go): a scan that reads values
	// then needs one pread per pair instead of two, and a scan, whatever
	// it reads, gets the pair buffer's read-ahead.
	pair       pairBuf
	wantValues bool
	// pairRead: the current block's pair was read from the file for its
	// key block, so its value block is in t.pair (loadPairedValue).
	pairRead bool
	// scan tells runs of key block loads (scan.go).
	scan   scanRun
	noFill bool // blocks missing from the cache are not added (SetFillCache)
	// keyFill is the fill mode the current block's key block was loaded
	// with; its value block, loaded alone, takes the same (fillFor).
	keyFill fillMode
	err     error
}

// NewIter returns an unpositioned iterator.
func (r *Reader) NewIter() *Iter {
	t := new(Iter)
	t.Reset(r)
	return t
}

// Reset makes t an unpositioned iterator over r, as NewIter returns one,
// without allocating: t must be closed or zero, since whatever it held is
// dropped (a block it still pinned would stay pinned). Reset(nil) leaves
// t holding nothing, not even its last Reader.
func (t *Iter) Reset(r *Reader) {
	*t = Iter{r: r, blk: -1, vblk: -1}
	if r == nil {
		return
	}
	t.scan.reset()
	t.takeBuffers()
	t.pair.reset()
	t.pair.ahead = true
}

// SetFillCache sets whether blocks the iterator reads from the file go into
// the cache (the default) or only into its own buffers, as RocksDB reads
// compaction inputs (fill_cache false): a compaction's inputs are deleted
// when it ends, and their blocks would only crowd out the blocks readers
// use. It finds blocks already cached either way.
func (t *Iter) SetFillCache(fill bool) { t.noFill = !fill }

// fillFor is the fill mode of a block load of t through pair: none with
// the cache fill off; for a block loaded alone (pair nil: before the
// iterator's first Value), admission for one load in admitSample, counted
// in the pair buffer with its pair reads, else only into a shard with
// room (cache_admission.go). A pair read samples itself (readPair).
func (t *Iter) fillFor(pair *pairBuf) fillMode {
	switch {
	case t.noFill:
		return fillNone
	case pair != nil:
		return fillAdmit
	}
	inSample := t.pair.reads&admitSampleMask == 0
	t.pair.reads++
	if inSample {
		return fillAdmit
	}
	return fillSpare
}

// loadKeys makes block i current (i in range); false on error.
func (t *Iter) loadKeys(i int) bool {
	t.kh.release()
	t.kh = cacheHandle{}
	// Drop the value block too: its bytes may live in t.pair, which the
	// load below may overwrite.
	t.vh.release()
	t.vh, t.vblk, t.vdata = cacheHandle{}, -1, nil
	// Until the load succeeds the block iterator holds no block: a seek
	// that finds t.blk == i must not reuse the previous block's bytes.
	t.it.data = nil
	t.blk = i
	d := t.r.blocks.at(i)
	if t.scan.load(i) {
		t.wantValues = true
	}
	var pair *pairBuf
	if t.wantValues {
		pair = &t.pair
	}
	held := pair != nil && pair.holds(i)
	t.keyFill = t.fillFor(pair)
	b, h, err := t.r.loadBlock(d.offset, d.keyLen, 2*i, &t.keyBuf, &t.tmp, pair, t.pair.charge, t.keyFill, true)
	if err != nil {
		t.err = err
		return false
	}
	t.kh = h
	t.pairRead = pair != nil && !held && pair.holds(i)
	if err := t.it.init(b); err != nil {
		t.it.data = nil
		t.err = corruptf(t.r.name, d.offset, "%v", err)
		return false
	}
	return true
}

// settle checks the block iterator after a move that returned ok.
func (t *Iter) settle(ok bool) bool {
	if !ok && t.it.err != nil {
		t.err = corruptf(t.r.name, t.r.blocks.at(t.blk).offset, "%v", t.it.err)
	}
	return ok
}

// forward moves to the first entry at or after the current block position,
// crossing into later blocks; ok is the result of the move within the block.
func (t *Iter) forward(ok bool) bool {
	for !ok {
		if t.err != nil || t.it.err != nil {
			return t.settle(false)
		}
		if t.blk+1 >= t.r.blocks.len() {
			t.blk = t.r.blocks.len()
			return false
		}
		if !t.loadKeys(t.blk + 1) {
			return false
		}
		ok = t.it.first()
	}
	return true
}

// backward is forward's mirror image.
func (t *Iter) backward(ok bool) bool {
	for !ok {
		if t.err != nil || t.it.err != nil {
			return t.settle(false)
		}
		if t.blk <= 0 {
			t.blk = -1
			return false
		}
		if !t.loadKeys(t.blk - 1) {
			return false
		}
		ok = t.it.last()
	}
	return true
}

// First moves to the first entry.
func (t *Iter) First() bool {
	t.err = nil
	if t.r.blocks.len() == 0 {
		t.blk = 0
		return false
	}
	if !t.loadKeys(0) {
		return false
	}
	return t.forward(t.it.first())
}

// Last moves to the last entry.
func (t *Iter) Last() bool {
	t.err = nil
	n := t.r.blocks.len()
	if n == 0 {
		t.blk = -1
		return false
	}
	if !t.loadKeys(n - 1) {
		return false
	}
	return t.backward(t.it.last())
}

// SeekGE moves to the first entry whose user key is >= userKey, which is
// that key's newest version.
func (t *Iter) SeekGE(userKey []byte) bool {
	t.err = nil
	i, err := t.r.seekBlock(userKey)
	if err != nil {
		t.err = err
		return false
	}
	if i == t.r.blocks.len() {
		t.blk = i
		return false
	}
	if t.blk != i || t.it.data == nil || t.it.err != nil {
		if !t.loadKeys(i) {
			return false
		}
	}
	return t.forward(t.it.seekGE(userKey))
}

// Exhaust positions the iterator past its last entry without reading, and
// clears its error: a seek its caller ruled out (a prefix filter) leaves
// no earlier error behind.
func (t *Iter) Exhaust() {
	t.err = nil
	t.blk = t.r.blocks.len()
}

// SeekLT moves to the last entry whose user key is < userKey.
func (t *Iter) SeekLT(userKey []byte) bool {
	t.err = nil
	i, err := t.r.seekBlock(userKey)
	if err != nil {
		t.err = err
		return false
	}
	if i == t.r.blocks.len() {
		return t.Last()
	}
	if t.blk != i || t.it.data == nil || t.it.err != nil {
		if !t.loadKeys(i) {
			return false
		}
	}
	if t.it.seekGE(userKey) {
		return t.backward(t.it.prev())
	}
	if t.it.err != nil {
		return t.settle(false)
	}
	// Every key of block i is < userKey.
	return t.backward(t.it.last())
}

// Next moves to the next entry; after an error it stays invalid until the
// next positioning (Valid checks the error; before the first entry Next
// restarts at First only when no error stopped it there, as First would
// clear it).
func (t *Iter) Next() bool {
	if t.blk < 0 {
		if t.err != nil {
			return false
		}
		return t.First()
	}
	if !t.Valid() {
		return false
	}
	return t.forward(t.it.next())
}

// Prev moves to the previous entry; after an error it stays invalid until
// the next positioning (as Next).
func (t *Iter) Prev() bool {
	if t.blk >= t.r.blocks.len() {
		if t.err != nil {
			return false
		}
		return t.Last()
	}
	if !t.Valid() {
		return false
	}
	return t.backward(t.it.prev())
}

// Valid reports whether the iterator is on an entry.
func (t *Iter) Valid() bool {
	return t.err == nil && t.blk >= 0 && t.blk < t.r.blocks.len() && t.it.valid()
}

// Key returns the current user key, valid until the next move.
func (t *Iter) Key() []byte { return t.it.key }

// Seq returns the current entry's sequence number.
func (t *Iter) Seq() uint64 { return t.it.trailer.Seq() }

// base.Kind returns the current entry's kind.
func (t *Iter) Kind() base.Kind { return t.it.trailer.Kind() }

// Value loads and returns the current value, valid until the next move.
func (t *Iter) Value() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("sst: Value on an invalid iterator")
	}
	if t.it.valLen == 0 {
		return nil, nil
	}
	if t.vblk != t.blk {
		t.vh.release()
		t.vh, t.vblk = cacheHandle{}, -1
		d := t.r.blocks.at(t.blk)
		var pair *pairBuf
		if t.wantValues {
			pair = &t.pair
		}
		t.wantValues = true
		var b []byte
		var h cacheHandle
		var err error
		if t.pairRead && t.pair.holds(t.blk) {
			b, h, err = t.r.loadPairedValue(t.blk, &t.valueBuf, &t.tmp, &t.pair, t.kh.s != nil)
		} else {
			fill := t.keyFill
			if pair != nil {
				fill = t.fillFor(pair)
			}
			b, h, err = t.r.loadBlock(d.valueOffset(), d.valueLen, 2*t.blk+1, &t.valueBuf, &t.tmp, pair, t.pair.charge, fill, true)
		}
		if err != nil {
			t.err = err
			return nil, err
		}
		t.vdata, t.vh, t.vblk = b, h, t.blk
	}
	end := uint64(t.it.valOff) + uint64(t.it.valLen)
	if end > uint64(len(t.vdata)) {
		d := t.r.blocks.at(t.blk)
		t.err = corruptf(t.r.name, d.valueOffset(), "value at %d+%d outside the %d-byte value block", t.it.valOff, t.it.valLen, len(t.vdata))
		return nil, t.err
	}
	return t.vdata[t.it.valOff:end], nil
}

// Error returns the error that stopped the iterator, if any.
func (t *Iter) Error() error { return t.err }

// Close releases the iterator's blocks and returns its error.
func (t *Iter) Close() error {
	t.kh.release()
	t.vh.release()
	t.kh, t.vh = cacheHandle{}, cacheHandle{}
	t.vblk, t.blk = -1, -1
	t.it.data = nil
	t.vdata = nil
	t.pair.reset()
	t.returnBuffers()
	return t.err
}
