package mergeop

import "bytes"

// maxOperator is RocksDB's MaxOperator (utilities/merge_operators/max.cc):
// the bytewise greatest (Slice::compare) of the existing value and the
// operands; the empty string when there is nothing else.
type maxOperator struct{}

func (maxOperator) Name() string { return "MaxOperator" }

// FullMerge is MaxOperator::FullMergeV2.
func (maxOperator) FullMerge(dst, _, existing []byte, hasExisting bool, operands [][]byte) ([]byte, error) {
	var greatest []byte
	if hasExisting {
		greatest = existing
	}
	return append(dst, greatestOf(greatest, operands)...), nil
}

// PartialMerge is MaxOperator::PartialMergeMulti.
func (maxOperator) PartialMerge(dst, _ []byte, operands [][]byte) ([]byte, bool) {
	return append(dst, greatestOf(nil, operands)...), true
}

// greatestOf is the bytewise greatest of start and operands; on ties the
// earlier one, as MaxOperator replaces only when strictly less.
func greatestOf(start []byte, operands [][]byte) []byte {
	greatest := start
	for _, operand := range operands {
		if bytes.Compare(greatest, operand) < 0 {
			greatest = operand
		}
	}
	return greatest
}
