package tracefmt

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Batch builds a WriteBatch representation (the format is in the package
// comment) for the default column family, with sequence number 0, as
// RocksDB's tracer records it. Reset keeps the buffer for reuse.
type Batch struct {
	data []byte
}

// Reset empties the batch.
func (b *Batch) Reset() {
	if cap(b.data) < batchHeaderSize {
		b.data = make([]byte, batchHeaderSize, 256)
	}
	b.data = b.data[:batchHeaderSize]
	clear(b.data)
}

// Put adds key -> value.
func (b *Batch) Put(key, value []byte) { b.add(tagPut, key, value, true) }

// Merge adds a merge operand of key.
func (b *Batch) Merge(key, value []byte) { b.add(tagMerge, key, value, true) }

// Delete adds a deletion of key.
func (b *Batch) Delete(key []byte) { b.add(tagDelete, key, nil, false) }

// SingleDelete adds a single deletion of key.
func (b *Batch) SingleDelete(key []byte) { b.add(tagSingleDelete, key, nil, false) }

// DeleteRange adds a deletion of the keys in [begin, end).
func (b *Batch) DeleteRange(begin, end []byte) { b.add(tagDeleteRange, begin, end, true) }

func (b *Batch) add(tag byte, key, value []byte, hasValue bool) {
	if len(b.data) < batchHeaderSize {
		b.Reset()
	}
	b.data = append(b.data, tag)
	b.data = appendSlice(b.data, key)
	if hasValue {
		b.data = appendSlice(b.data, value)
	}
	n := binary.LittleEndian.Uint32(b.data[8:batchHeaderSize])
	binary.LittleEndian.PutUint32(b.data[8:batchHeaderSize], n+1)
}

// Count is the number of entries.
func (b *Batch) Count() int {
	if len(b.data) < batchHeaderSize {
		return 0
	}
	return int(binary.LittleEndian.Uint32(b.data[8:batchHeaderSize]))
}

// Bytes is the representation, valid until the next change.
func (b *Batch) Bytes() []byte {
	if len(b.data) < batchHeaderSize {
		b.Reset()
	}
	return b.data
}

// EntryKind says what a batch entry does.
type EntryKind uint8

// The kinds of batch entries.
const (
	EntryPut EntryKind = iota
	EntryDelete
	EntrySingleDelete
	EntryMerge
	EntryDeleteRange // Key is the range's begin, Value its end (exclusive)
)

// Entry is one write of a batch. Its slices point into the batch.
type Entry struct {
	Kind   EntryKind
	Family uint32
	Key    []byte
	Value  []byte
}

// ErrCorrupt is wrapped by every error of a malformed trace or batch.
var ErrCorrupt = errors.New("Corruption")

// BatchEntries calls fn with every write of batch in order, skipping log
// data and no-ops, and stops at fn's first error. A batch that does not
// parse, or whose count disagrees with its entries, is an error wrapping
// ErrCorrupt, in RocksDB's words.
func BatchEntries(batch []byte, fn func(e *Entry) error) error {
	if len(batch) < batchHeaderSize {
		return fmt.Errorf("%w: malformed WriteBatch (too small)", ErrCorrupt)
	}
	want := binary.LittleEndian.Uint32(batch[8:batchHeaderSize])
	var e Entry
	var got uint32
	for p := batch[batchHeaderSize:]; len(p) > 0; {
		tag := p[0]
		p = p[1:]
		var ok bool
		e.Family = 0
		switch tag {
		case tagCFPut, tagCFMerge, tagCFDelete, tagCFSingleDelete, tagCFDeleteRange:
			var cf uint64
			cf, p, ok = takeUvarint32(p)
			if !ok {
				return fmt.Errorf("%w: bad WriteBatch column family", ErrCorrupt)
			}
			e.Family = uint32(cf)
		}
		hasValue := false
		switch tag {
		case tagPut, tagCFPut:
			e.Kind, hasValue = EntryPut, true
		case tagMerge, tagCFMerge:
			e.Kind, hasValue = EntryMerge, true
		case tagDeleteRange, tagCFDeleteRange:
			e.Kind, hasValue = EntryDeleteRange, true
		case tagDelete, tagCFDelete:
			e.Kind = EntryDelete
		case tagSingleDelete, tagCFSingleDelete:
			e.Kind = EntrySingleDelete
		case tagLogData:
			if _, p, ok = takeSlice(p); !ok {
				return fmt.Errorf("%w: bad WriteBatch Blob", ErrCorrupt)
			}
			continue
		case tagNoop:
			continue
		default:
			return fmt.Errorf("%w: unknown WriteBatch tag", ErrCorrupt)
		}
		if e.Key, p, ok = takeSlice(p); !ok {
			return fmt.Errorf("%w: bad WriteBatch Put", ErrCorrupt)
		}
		e.Value = nil
		if hasValue {
			if e.Value, p, ok = takeSlice(p); !ok {
				return fmt.Errorf("%w: bad WriteBatch Put", ErrCorrupt)
			}
		}
		got++
		if err := fn(&e); err != nil {
			return err
		}
	}
	if got != want {
		return fmt.Errorf("%w: WriteBatch has wrong count", ErrCorrupt)
	}
	return nil
}

// takeUvarint32 reads a varint32 from the front of p.
func takeUvarint32(p []byte) (uint64, []byte, bool) {
	v, n := binary.Uvarint(p)
	if n <= 0 || n > 5 || v > 1<<32-1 {
		return 0, p, false
	}
	return v, p[n:], true
}

// takeSlice reads a varint32 length then that many bytes from the front of p.
func takeSlice(p []byte) (s, rest []byte, ok bool) {
	n, p, ok := takeUvarint32(p)
	if !ok || n > uint64(len(p)) {
		return nil, p, false
	}
	return p[:n:n], p[n:], true
}
