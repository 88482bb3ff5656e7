package mergeop

import "encoding/binary"

// uint64AddOperator is RocksDB's UInt64AddOperator
// (utilities/merge_operators/uint64add.cc), an AssociativeMergeOperator over
// 8-byte little-endian unsigned integers (RocksDB's EncodeFixed64).
//
// Value format: exactly 8 bytes, the integer little endian. A value or
// operand of any other length counts as 0 (DecodeInteger logs "uint64 value
// corruption" and returns 0); the sum wraps modulo 2^64. Every result is 8
// bytes, even from a single malformed operand (0 + 0).
type uint64AddOperator struct{}

func (uint64AddOperator) Name() string { return "UInt64AddOperator" }

// FullMerge folds Merge over the operands, starting from existing (or 0).
func (uint64AddOperator) FullMerge(dst, _, existing []byte, hasExisting bool, operands [][]byte) ([]byte, error) {
	var sum uint64
	if hasExisting {
		sum = decodeUint64Operand(existing)
	}
	for _, operand := range operands {
		sum += decodeUint64Operand(operand)
	}
	return binary.LittleEndian.AppendUint64(dst, sum), nil
}

// PartialMerge is AssociativeMergeOperator::PartialMerge folded over the
// operands (MergeOperator::PartialMergeMulti): their sum.
func (uint64AddOperator) PartialMerge(dst, _ []byte, operands [][]byte) ([]byte, bool) {
	var sum uint64
	for _, operand := range operands {
		sum += decodeUint64Operand(operand)
	}
	return binary.LittleEndian.AppendUint64(dst, sum), true
}

// decodeUint64Operand is UInt64AddOperator::DecodeInteger: the fixed64 in an
// 8-byte value, 0 for any other length.
func decodeUint64Operand(value []byte) uint64 {
	if len(value) != 8 {
		return 0
	}
	return binary.LittleEndian.Uint64(value)
}
