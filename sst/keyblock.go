package sst

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
)

// A data block is split in two: a key block holding prefix-compressed keys,
// trailers and value lengths, and a value block holding the values back to
// back. A key-only scan reads and decompresses only key blocks; see the
// package doc for the byte layout.

// errBadBlock is returned by block decoding; the reader wraps it with the
// file name and offset.
var errBadBlock = errors.New("malformed key block")

// restartEntryLen is the size of one restart point: the u32 offset of the
// entry in the key block and the u32 offset of its value in the value block.
const restartEntryLen = 8

// keyBlockWriter accumulates one key block and its value block.
type keyBlockWriter struct {
	keys     []byte
	values   []byte
	restarts []uint32 // pairs: key offset, value offset
	lastKey  []byte
	// lastTrailer is the previous entry's trailer.
	lastTrailer base.Trailer
	interval    int
	counter     int
	entries     int
}

func (b *keyBlockWriter) reset() {
	b.keys = b.keys[:0]
	b.values = b.values[:0]
	b.restarts = b.restarts[:0]
	b.lastKey = b.lastKey[:0]
	b.counter = 0
	b.entries = 0
}

func (b *keyBlockWriter) add(key []byte, trailer base.Trailer, value []byte) {
	if invariants.Enabled {
		b.checkOrder(key, trailer)
	}
	shared := 0
	restart := b.counter == b.interval || b.entries == 0
	if restart {
		b.restarts = append(b.restarts, uint32(len(b.keys)), uint32(len(b.values)))
		b.counter = 0
	} else {
		n := min(len(key), len(b.lastKey))
		for shared < n && key[shared] == b.lastKey[shared] {
			shared++
		}
	}
	// The trailer is omitted when it repeats the previous entry's (as in
	// bottom-level tables, whose sequence numbers are all zero), except at
	// restart points, which must decode on their own.
	omit := !restart && trailer == b.lastTrailer
	head := uint64(shared) << 1
	if omit {
		head |= 1
	}
	b.keys = binary.AppendUvarint(b.keys, head)
	b.keys = binary.AppendUvarint(b.keys, uint64(len(key)-shared))
	b.keys = binary.AppendUvarint(b.keys, uint64(len(value)))
	b.keys = append(b.keys, key[shared:]...)
	if !omit {
		b.keys = binary.AppendUvarint(b.keys, uint64(trailer))
	}
	b.values = append(b.values, value...)
	b.lastKey = append(b.lastKey[:0], key...)
	b.lastTrailer = trailer
	b.counter++
	b.entries++
}

// size estimates the bytes the pair will take uncompressed.
func (b *keyBlockWriter) size() int {
	return len(b.keys) + len(b.values) + len(b.restarts)*4 + 4
}

// finishKeys appends the restart array and count to the key bytes and
// returns the complete key block.
func (b *keyBlockWriter) finishKeys() []byte {
	for _, r := range b.restarts {
		b.keys = binary.LittleEndian.AppendUint32(b.keys, r)
	}
	return binary.LittleEndian.AppendUint32(b.keys, uint32(len(b.restarts)/2))
}

// blockIter walks the entries of one key block. It owns its key buffer, so
// moving never allocates once the buffer has grown to the longest key.
type blockIter struct {
	data        []byte // the whole key block
	restarts    int    // offset of the restart array = end of the entries
	numRestarts int
	off         int // offset of the current entry
	nextOff     int // offset of the entry after it
	key         []byte
	trailer     base.Trailer
	valOff      uint32 // value of the current entry in the value block
	valLen      uint32
	// atRestart is set while the next entry to decode is a restart point.
	atRestart bool
	err       error
	// reverse holds the restart interval last scanned for prev and last.
	reverse reverseCache
}

// init prepares it for block data; it returns errBadBlock if the restart
// array does not fit.
func (it *blockIter) init(data []byte) error {
	it.data = data
	it.err = nil
	it.off, it.nextOff = 0, 0
	it.reverse.reset()
	if len(data) < 4 {
		return errBadBlock
	}
	n := binary.LittleEndian.Uint32(data[len(data)-4:])
	if uint64(n)*restartEntryLen > uint64(len(data)-4) {
		return errBadBlock
	}
	it.numRestarts = int(n)
	it.restarts = len(data) - 4 - int(n)*restartEntryLen
	if n == 0 && it.restarts != 0 {
		return errBadBlock
	}
	return nil
}

func (it *blockIter) restartPoint(i int) (keyOff int, valOff uint32) {
	p := it.restarts + i*restartEntryLen
	return int(binary.LittleEndian.Uint32(it.data[p:])), binary.LittleEndian.Uint32(it.data[p+4:])
}

// decode reads the entry at it.nextOff, whose value starts at valOff, and
// makes it current. The key is rebuilt from the shared prefix of the
// previous key still in it.key. It returns false at the end of the entries
// or on malformed bytes (then it.err is set).
func (it *blockIter) decode(valOff uint32) bool {
	p := it.nextOff
	if p >= it.restarts {
		it.off = it.restarts
		return false
	}
	d := it.data[:it.restarts]
	var shared, unshared, vlen uint64
	// Fast path: the three lengths are almost always single-byte varints.
	if p+3 <= len(d) && d[p]|d[p+1]|d[p+2] < 0x80 {
		shared, unshared, vlen = uint64(d[p]), uint64(d[p+1]), uint64(d[p+2])
		p += 3
	} else {
		var n int
		if shared, n = binary.Uvarint(d[p:]); n <= 0 {
			return it.corrupt()
		}
		p += n
		if unshared, n = binary.Uvarint(d[p:]); n <= 0 {
			return it.corrupt()
		}
		p += n
		if vlen, n = binary.Uvarint(d[p:]); n <= 0 {
			return it.corrupt()
		}
		p += n
	}
	omit := shared&1 != 0
	shared >>= 1
	if shared > uint64(len(it.key)) || unshared > uint64(len(d)-p) || vlen > maxBlockLen {
		return it.corrupt()
	}
	it.key = append(it.key[:shared], d[p:p+int(unshared)]...)
	p += int(unshared)
	if omit {
		if it.atRestart {
			// A restart point has no previous entry to repeat.
			return it.corrupt()
		}
	} else if p < len(d) && d[p] < 0x80 {
		it.trailer = base.Trailer(d[p])
		p++
	} else {
		t, n := binary.Uvarint(d[p:])
		if n <= 0 {
			return it.corrupt()
		}
		it.trailer = base.Trailer(t)
		p += n
	}
	it.atRestart = false
	it.off = it.nextOff
	it.nextOff = p
	it.valOff = valOff
	it.valLen = uint32(vlen)
	return true
}

func (it *blockIter) corrupt() bool {
	it.err = errBadBlock
	it.off = it.restarts
	return false
}

// seekRestart positions before the entry at restart point i.
func (it *blockIter) seekRestart(i int) uint32 {
	k, v := it.restartPoint(i)
	if k > it.restarts {
		it.err = errBadBlock
		k = it.restarts
	}
	it.nextOff = k
	it.key = it.key[:0]
	it.atRestart = true
	return v
}

func (it *blockIter) first() bool {
	if it.numRestarts == 0 {
		it.off = it.restarts
		return false
	}
	return it.decode(it.seekRestart(0))
}

func (it *blockIter) next() bool {
	return it.decode(it.valOff + it.valLen)
}

// last moves to the final entry of the block.
func (it *blockIter) last() bool {
	if it.numRestarts == 0 {
		it.off = it.restarts
		return false
	}
	record := it.reverse.begin()
	ok := it.decode(it.seekRestart(it.numRestarts - 1))
	for ok && it.nextOff < it.restarts {
		if record {
			it.reverse.record(it)
		}
		ok = it.decode(it.valOff + it.valLen)
	}
	if ok && record {
		it.reverse.record(it)
	}
	return ok && it.err == nil
}

// prev moves to the entry before the current one: from the reverse cache
// when the last rescan went through it, else by rescanning from the restart
// point before it (at most BlockRestartInterval decodes), which fills the
// cache with that interval (reverseCache.begin says when).
func (it *blockIter) prev() bool {
	target := it.off
	if it.reverse.restoreBefore(it, target) {
		return true
	}
	// Last restart point whose entry starts before target.
	lo, hi := 0, it.numRestarts
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if k, _ := it.restartPoint(m); k < target {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		it.off = -1
		return false
	}
	record := it.reverse.begin()
	ok := it.decode(it.seekRestart(lo - 1))
	for ok && it.nextOff < target {
		if record {
			it.reverse.record(it)
		}
		ok = it.decode(it.valOff + it.valLen)
	}
	if ok && it.nextOff != target {
		return it.corrupt()
	}
	if ok && record {
		it.reverse.record(it)
	}
	return ok
}

// restartKey returns the key stored whole at restart point i.
func (it *blockIter) restartKey(i int) ([]byte, bool) {
	k, _ := it.restartPoint(i)
	d := it.data[:it.restarts]
	if k >= len(d) {
		return nil, false
	}
	p := k
	var shared, unshared uint64
	var n int
	if shared, n = binary.Uvarint(d[p:]); n <= 0 || shared != 0 {
		return nil, false
	}
	p += n
	if unshared, n = binary.Uvarint(d[p:]); n <= 0 {
		return nil, false
	}
	p += n
	if _, n = binary.Uvarint(d[p:]); n <= 0 {
		return nil, false
	}
	p += n
	if unshared > uint64(len(d)-p) {
		return nil, false
	}
	return d[p : p+int(unshared)], true
}

// seekGE moves to the first entry whose user key is >= key. It binary
// searches the restart points (whose keys are stored whole, so the search
// copies nothing), then scans forward at most one restart interval.
func (it *blockIter) seekGE(key []byte) bool {
	lo, hi := 0, it.numRestarts
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		rk, ok := it.restartKey(m)
		if !ok {
			return it.corrupt()
		}
		if bytes.Compare(rk, key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	// Restart lo-1 is the last one with a key < key; entries >= key start
	// there at the earliest.
	start := max(lo-1, 0)
	if it.numRestarts == 0 {
		it.off = it.restarts
		return false
	}
	ok := it.decode(it.seekRestart(start))
	for ok && bytes.Compare(it.key, key) < 0 {
		ok = it.decode(it.valOff + it.valLen)
	}
	return ok
}

// valid reports whether the iterator is on an entry.
func (it *blockIter) valid() bool {
	return it.off >= 0 && it.off < it.restarts && it.err == nil
}
