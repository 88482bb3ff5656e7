package sst

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/godbbench/godbbench/internal/bloom"
)

// Partitioned index and filters (format version 3; doc.go has the bytes).
//
// A table written with WriterOptions.PartitionIndex cuts its index, as
// RocksDB's kTwoLevelIndexSearch does, into partitions: a partition ends
// after the index entry that brings its encoded entries to
// MetadataBlockSize bytes or more, and at the end of the table. Each
// partition is stored as a version 2 index block of its own (checksummed,
// compressed under CompressIndex), and a top-level index holds, per
// partition, the separator of its last data block, its handle and its
// block count. With PartitionFilters the filter is cut at the same
// boundaries, one bloom filter block per index partition over the user
// keys whose first version lies in that partition's data blocks (and,
// with a prefix filter, the prefixes of those keys, each partition's first
// key adding its prefix anew), and a top-level filter index holds the
// partitions' handles in the same order.
//
// Open reads and checks every partition and keeps the index decoded as
// for an unpartitioned table (RocksDB's partitioned index reader likewise
// keeps the partitions in the table reader when index and filter blocks
// are not cached), so every reader path works unchanged; a damaged
// partition fails Open with ErrCorruption. A point lookup on a table with
// partitioned filters first finds its data block, then probes the filter
// partition holding that block.

// partitionWriter holds a Writer's finished partitions until Finish
// writes them.
type partitionWriter struct {
	// index are the encoded index partitions (uvarint count, entries),
	// seps their last separators, counts their data block counts.
	index  [][]byte
	seps   [][]byte
	counts []int
	// filters are the encoded filter partitions (PartitionFilters).
	filters [][]byte
	// fresh is set at a cut: the next key starts a filter partition.
	fresh bool
}

// checkPartitionOptions settles the partition options at NewWriter. As
// RocksDB does, partitioned filters without a partitioned index (or
// without a filter) fall back to one whole filter.
func (w *Writer) checkPartitionOptions() {
	o := &w.opts
	if !o.PartitionIndex || o.BloomBitsPerKey <= 0 {
		o.PartitionFilters = false
	}
	if !o.PartitionIndex {
		return
	}
	if o.FormatVersion == formatVersion1 {
		w.err = fmt.Errorf("sst: format version 1 has no partitioned index")
		return
	}
	o.FormatVersion = formatVersionPartitioned
	if o.MetadataBlockSize <= 0 {
		o.MetadataBlockSize = 4096
	}
}

// cutPartition ends the current index partition, whose last separator is
// sep, and with PartitionFilters the current filter partition.
func (w *Writer) cutPartition(sep []byte) {
	p := &w.parts
	part := binary.AppendUvarint(make([]byte, 0, len(w.index)+binary.MaxVarintLen64), uint64(w.blocks))
	p.index = append(p.index, append(part, w.index...))
	p.seps = append(p.seps, bytes.Clone(sep))
	p.counts = append(p.counts, w.blocks)
	w.index, w.blocks = w.index[:0], 0
	if w.opts.PartitionFilters {
		p.filters = append(p.filters, w.filter.cut())
		p.fresh = true
	}
}

// filterPrev is the user key before the one being added to the filter, as
// addFilterKeys takes it: nil at the start of a filter partition, so that
// every partition holds the prefixes of its own keys.
func (w *Writer) filterPrev() []byte {
	if w.parts.fresh {
		w.parts.fresh = false
		return nil
	}
	return w.lastKey
}

// writeIndexPartitions writes the index partitions and the top-level
// index after them, and records the top level in f.
func (w *Writer) writeIndexPartitions(f *footer) error {
	p := &w.parts
	top := binary.AppendUvarint(nil, uint64(len(p.index)))
	for i, part := range p.index {
		h, err := w.writeBlock(part, w.opts.CompressIndex)
		if err != nil {
			return err
		}
		w.props.IndexSize += uint64(h.Len) + blockTrailerLen
		top = binary.AppendUvarint(top, uint64(len(p.seps[i])))
		top = append(top, p.seps[i]...)
		top = binary.AppendUvarint(top, h.Offset)
		top = binary.AppendUvarint(top, uint64(h.Len))
		top = binary.AppendUvarint(top, uint64(p.counts[i]))
	}
	h, err := w.writeBlock(top, w.opts.CompressIndex)
	if err != nil {
		return err
	}
	f.Index = h
	w.props.IndexSize += uint64(h.Len) + blockTrailerLen
	w.props.IndexPartitions = len(p.index)
	return nil
}

// writeFilterPartitions writes the filter partitions and the top-level
// filter index after them, and records the top level in f.
func (w *Writer) writeFilterPartitions(f *footer) error {
	p := &w.parts
	top := binary.AppendUvarint(nil, uint64(len(p.filters)))
	for _, part := range p.filters {
		h, err := w.writeBlock(part, false)
		if err != nil {
			return err
		}
		w.props.FilterSize += uint64(h.Len) + blockTrailerLen
		top = binary.AppendUvarint(top, h.Offset)
		top = binary.AppendUvarint(top, uint64(h.Len))
	}
	h, err := w.writeBlock(top, false)
	if err != nil {
		return err
	}
	f.Filter, f.PartitionedFilter = h, true
	w.props.FilterSize += uint64(h.Len) + blockTrailerLen
	return nil
}

// partitionHandle parses a uvarint offset and length at the start of b
// and checks that the block lies inside the table's blocks.
func (r *Reader) partitionHandle(b []byte) (handle, []byte, bool) {
	off, k := binary.Uvarint(b)
	if k <= 0 {
		return handle{}, b, false
	}
	b = b[k:]
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return handle{}, b, false
	}
	limit := uint64(r.size) - footerLen
	if n > maxBlockLen || off > limit || limit-off < n+blockTrailerLen {
		return handle{}, b, false
	}
	return handle{off, uint32(n)}, b[k:], true
}

// decodePartitionedIndex decodes the top-level index b (at off) and every
// partition it names into the Reader's index; it returns the partitions'
// handles.
func (r *Reader) decodePartitionedIndex(b []byte, off uint64) ([]handle, error) {
	bad := func(what string, args ...any) ([]handle, error) {
		return nil, corruptf(r.name, off, "top-level index block: %s", fmt.Sprintf(what, args...))
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return bad("bad partition count")
	}
	b = b[k:]
	r.partEnd = make([]int, 0, n)
	handles := make([]handle, 0, n)
	for p := uint64(0); p < n; p++ {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return bad("bad separator length")
		}
		sep := b[k : k+int(l)]
		h, rest, ok := r.partitionHandle(b[k+int(l):])
		if !ok {
			return bad("partition %d: bad block handle", p)
		}
		count, k := binary.Uvarint(rest)
		if k <= 0 {
			return bad("partition %d: bad block count", p)
		}
		b = rest[k:]
		pb, err := r.readIndexBlock(h)
		if err != nil {
			return nil, err
		}
		got, err := r.appendIndexEntries(pb, h.Offset)
		if err != nil {
			return nil, err
		}
		if uint64(got) != count || got == 0 {
			return nil, corruptf(r.name, h.Offset, "index partition %d holds %d blocks, the top-level index says %d", p, got, count)
		}
		if !bytes.Equal(sep, r.separator(r.blocks.len()-1)) {
			return nil, corruptf(r.name, h.Offset, "index partition %d ends at separator %q, the top-level index says %q", p, r.separator(r.blocks.len()-1), sep)
		}
		r.partEnd = append(r.partEnd, r.blocks.len())
		handles = append(handles, h)
	}
	if len(b) != 0 {
		return bad("trailing bytes")
	}
	return handles, nil
}

// decodePartitionedFilter decodes the top-level filter index b (at off)
// and every filter partition it names: one per index partition. A Reader
// whose partitions go through the cache keeps the handles only.
func (r *Reader) decodePartitionedFilter(b []byte, off uint64) error {
	n, k := binary.Uvarint(b)
	if k <= 0 || n != uint64(len(r.partEnd)) {
		return corruptf(r.name, off, "top-level filter index: %d partitions for %d index partitions", n, len(r.partEnd))
	}
	b = b[k:]
	handles := make([]handle, n)
	for p := range handles {
		h, rest, ok := r.partitionHandle(b)
		if !ok {
			return corruptf(r.name, off, "top-level filter index: partition %d: bad block handle", p)
		}
		b, handles[p] = rest, h
	}
	if len(b) != 0 {
		return corruptf(r.name, off, "top-level filter index: trailing bytes")
	}
	if r.lazy != nil {
		r.lazy.filter = handles
		return nil
	}
	r.filterParts = make([]bloom.Filter, n)
	for p, h := range handles {
		var ok bool
		fb, err := r.readMetaBlock(h)
		if err != nil {
			return err
		}
		if r.filterParts[p], ok = decodeBloom(fb); !ok {
			return corruptf(r.name, h.Offset, "malformed filter partition %d", p)
		}
	}
	return nil
}

// partitionedFilter reports whether the table's filter is partitioned.
func (r *Reader) partitionedFilter() bool {
	return r.filterParts != nil || r.lazy != nil && r.lazy.filter != nil
}

// prefixMayMatch is MayContainPrefix's probe of partitioned filters: the
// keys starting with prefix lie in the partitions from the first whose
// last separator is >= prefix up to the first partition whose last
// separator is past every such key; any of them may hold the prefix.
func (r *Reader) prefixMayMatch(prefix []byte) bool {
	h := hashKey(prefix)
	for p := r.seekPartition(prefix); p < len(r.partEnd); p++ {
		f, fh, err := r.filterPartition(p)
		if err != nil {
			return true
		}
		may := f.MayContain(h)
		fh.release()
		if may {
			return true
		}
		if !bytes.HasPrefix(r.partitionLast(p), prefix) {
			return false
		}
	}
	return false
}
