package sst

import (
	"encoding/binary"
	"fmt"
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
}

// encode appends the properties block (see the package doc). FileSize and
// FormatVersion are not stored: the reader knows both from the file.
func (p *Properties) encode(dst []byte) []byte {
	for _, v := range [...]uint64{p.NumEntries, p.NumDeletions, p.RawKeySize, p.RawValueSize,
		p.DataSize, p.IndexSize, p.FilterSize, p.SmallestSeq, p.LargestSeq, uint64(p.Compression)} {
		dst = binary.AppendUvarint(dst, v)
	}
	dst = binary.AppendUvarint(dst, uint64(len(p.SmallestKey)))
	dst = append(dst, p.SmallestKey...)
	dst = binary.AppendUvarint(dst, uint64(len(p.LargestKey)))
	return append(dst, p.LargestKey...)
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
		return p, fmt.Errorf("%d trailing bytes after properties", len(b))
	}
	return p, nil
}
