package tracefmt

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// fieldReader walks a version-2 payload's fields in payload-map order.
type fieldReader struct {
	m    uint64
	rest []byte
}

// openFields reads the payload map; for version < 2 payloads (no map)
// legacy is the map their fixed layout has.
func openFields(version int, payload []byte, legacy uint64) (fieldReader, error) {
	if version < 2 {
		return fieldReader{m: legacy, rest: payload}, nil
	}
	if len(payload) < 8 {
		return fieldReader{}, fmt.Errorf("%w: trace payload without its payload map", ErrCorrupt)
	}
	return fieldReader{m: binary.LittleEndian.Uint64(payload), rest: payload[8:]}, nil
}

// next returns the bit of the next field present, or -1 when none is left.
func (f *fieldReader) next() int {
	if f.m == 0 {
		return -1
	}
	b := bits.TrailingZeros64(f.m)
	f.m &= f.m - 1
	return b
}

func (f *fieldReader) fixed32() (uint32, error) {
	if len(f.rest) < 4 {
		return 0, fmt.Errorf("%w: trace payload cut short", ErrCorrupt)
	}
	v := binary.LittleEndian.Uint32(f.rest)
	f.rest = f.rest[4:]
	return v, nil
}

func (f *fieldReader) slice() ([]byte, error) {
	s, rest, ok := takeSlice(f.rest)
	if !ok {
		return nil, fmt.Errorf("%w: trace payload cut short", ErrCorrupt)
	}
	f.rest = rest
	return s, nil
}

func unexpectedField(b int) error {
	return fmt.Errorf("%w: trace payload field %d does not belong to its record type", ErrCorrupt, b)
}

// DecodeWrite returns the WriteBatch representation of a TypeWrite
// payload of a trace of the given version.
func DecodeWrite(version int, payload []byte) (batch []byte, err error) {
	if version < 2 {
		return payload, nil
	}
	f, err := openFields(version, payload, 0)
	if err != nil {
		return nil, err
	}
	for b := f.next(); b >= 0; b = f.next() {
		if b != bitWriteBatch {
			return nil, unexpectedField(b)
		}
		if batch, err = f.slice(); err != nil {
			return nil, err
		}
	}
	if batch == nil {
		return nil, fmt.Errorf("%w: trace write without a WriteBatch", ErrCorrupt)
	}
	return batch, nil
}

// DecodeGet returns the column family and key of a TypeGet payload.
func DecodeGet(version int, payload []byte) (cf uint32, key []byte, err error) {
	f, err := openFields(version, payload, mapGet)
	if err != nil {
		return 0, nil, err
	}
	for b := f.next(); b >= 0 && err == nil; b = f.next() {
		switch b {
		case bitGetCF:
			cf, err = f.fixed32()
		case bitGetKey:
			key, err = f.slice()
		default:
			err = unexpectedField(b)
		}
	}
	return cf, key, err
}

// DecodeSeek returns the column family, target and bounds (nil: none) of
// a TypeSeek or TypeSeekForPrev payload.
func DecodeSeek(version int, payload []byte) (cf uint32, key, lower, upper []byte, err error) {
	f, err := openFields(version, payload, mapSeekWithoutBds)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	for b := f.next(); b >= 0 && err == nil; b = f.next() {
		switch b {
		case bitIterCF:
			cf, err = f.fixed32()
		case bitIterKey:
			key, err = f.slice()
		case bitIterLower:
			lower, err = f.slice()
		case bitIterUpper:
			upper, err = f.slice()
		default:
			err = unexpectedField(b)
		}
	}
	return cf, key, lower, upper, err
}

// DecodeMultiGet calls fn with the column family and key of every lookup
// of a TypeMultiGet payload, in order, and returns how many there were.
// RocksDB refuses a MultiGet of no keys, and so does this.
func DecodeMultiGet(version int, payload []byte, fn func(cf uint32, key []byte)) (int, error) {
	if version < 2 {
		return 0, fmt.Errorf("%w: MultiGet is not supported.", ErrCorrupt)
	}
	f, err := openFields(version, payload, 0)
	if err != nil {
		return 0, err
	}
	var n uint32
	var cfs, keys []byte
	for b := f.next(); b >= 0 && err == nil; b = f.next() {
		switch b {
		case bitMultiGetSize:
			n, err = f.fixed32()
		case bitMultiGetCFs:
			cfs, err = f.slice()
		case bitMultiGetKeys:
			keys, err = f.slice()
		default:
			err = unexpectedField(b)
		}
	}
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, fmt.Errorf("Invalid argument: Empty MultiGet cf_ids or keys.")
	}
	if uint64(len(cfs)) < 4*uint64(n) {
		return 0, fmt.Errorf("%w: MultiGet of %d keys with %d bytes of column families", ErrCorrupt, n, len(cfs))
	}
	for i := uint32(0); i < n; i++ {
		key, rest, ok := takeSlice(keys)
		if !ok {
			return int(i), fmt.Errorf("%w: MultiGet keys cut short", ErrCorrupt)
		}
		keys = rest
		fn(binary.LittleEndian.Uint32(cfs[4*i:]), key)
	}
	return int(n), nil
}
