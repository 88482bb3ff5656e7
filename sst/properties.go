package sst

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Properties describe a finished table.
type Properties struct {
	NumEntries, NumDeletions uint64
	RawKeySize, RawValueSize uint64 // keys counted with their 8-byte trailer, as RocksDB does
	DataSize, IndexSize      uint64 // bytes on disk, trailers included
	FilterSize, FileSize     uint64
	SmallestKey, LargestKey  []byte // user keys; nil for an empty table
	SmallestSeq, LargestSeq  uint64
	Compression              Compression
	FormatVersion            uint32
	// Checksum is the function that checks the table's blocks.
	Checksum ChecksumType
	// NumRangeDeletions counts the range tombstones of the range-deletion
	// block, one per fragment and sequence (RocksDB's
	// rocksdb.num.range-deletions); 0 when the table has no such block.
	NumRangeDeletions uint64
	// FilterPrefixLen is the length of the key prefixes in the filter (0:
	// none), and PrefixOnlyFilter says whole keys are not in it
	// (prefixfilter.go).
	FilterPrefixLen  int
	PrefixOnlyFilter bool
	// IndexPartitions is the number of index partitions of a partitioned
	// index (RocksDB's rocksdb.index.partitions), 0 for a whole index.
	// It is not stored: the top-level index holds it.
	IndexPartitions int
	// rangeDels is the range-deletion block's handle (zero without one).
	rangeDels handle
}

// encode appends the properties block (see the package doc). FileSize,
// FormatVersion and Checksum are not stored: the reader knows them from the
// file and its footer.
func (p *Properties) encode(dst []byte) []byte {
	for _, v := range [...]uint64{p.NumEntries, p.NumDeletions, p.RawKeySize, p.RawValueSize,
		p.DataSize, p.IndexSize, p.FilterSize, p.SmallestSeq, p.LargestSeq, uint64(p.Compression)} {
		dst = binary.AppendUvarint(dst, v)
	}
	dst = binary.AppendUvarint(dst, uint64(len(p.SmallestKey)))
	dst = append(dst, p.SmallestKey...)
	dst = binary.AppendUvarint(dst, uint64(len(p.LargestKey)))
	dst = append(dst, p.LargestKey...)
	if p.NumRangeDeletions > 0 {
		dst = binary.AppendUvarint(dst, p.NumRangeDeletions)
		dst = binary.AppendUvarint(dst, p.rangeDels.Offset)
		dst = binary.AppendUvarint(dst, uint64(p.rangeDels.Len))
	}
	return p.encodeFilterContents(dst)
}

// decodeProperties parses a properties block.
func decodeProperties(b []byte) (Properties, error) {
	var p Properties
	fields := [...]*uint64{&p.NumEntries, &p.NumDeletions, &p.RawKeySize, &p.RawValueSize,
		&p.DataSize, &p.IndexSize, &p.FilterSize, &p.SmallestSeq, &p.LargestSeq}
	for _, f := range fields {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return p, fmt.Errorf("truncated properties")
		}
		*f, b = v, b[n:]
	}
	c, n := binary.Uvarint(b)
	if n <= 0 || c > 255 {
		return p, fmt.Errorf("bad compression property")
	}
	p.Compression, b = Compression(c), b[n:]
	for _, k := range [...]*[]byte{&p.SmallestKey, &p.LargestKey} {
		l, n := binary.Uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return p, fmt.Errorf("bad key property")
		}
		if l > 0 {
			*k = append([]byte(nil), b[n:n+int(l)]...)
		}
		b = b[n+int(l):]
	}
	if len(b) != 0 {
		// The range-deletion fields.
		var vals [3]uint64
		for i := range vals {
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return p, fmt.Errorf("bad range deletion property")
			}
			vals[i], b = v, b[n:]
		}
		// Three zeros stand for no range tombstones before the
		// filter-contents fields.
		none := vals == [3]uint64{} && len(b) > 0
		if (vals[0] == 0 && !none) || vals[2] > math.MaxUint32 {
			return p, fmt.Errorf("bad range deletion property")
		}
		p.NumRangeDeletions = vals[0]
		p.rangeDels = handle{Offset: vals[1], Len: uint32(vals[2])}
		var err error
		if b, err = p.decodeFilterContents(b); err != nil {
			return p, err
		}
	}
	if len(b) != 0 {
		return p, fmt.Errorf("%d trailing bytes after properties", len(b))
	}
	return p, nil
}
