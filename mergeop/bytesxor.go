package mergeop

// bytesXOROperator is RocksDB's BytesXOROperator
// (utilities/merge_operators/bytesxor.cc), an AssociativeMergeOperator: each
// operand is XORed into the value byte by byte. The result is as long as the
// longer of the two; the longer one's tail is copied unchanged. Without an
// existing value the first operand is the value.
type bytesXOROperator struct{}

func (bytesXOROperator) Name() string { return "BytesXOR" }

// FullMerge folds BytesXOROperator::XOR over the operands.
func (bytesXOROperator) FullMerge(dst, _, existing []byte, hasExisting bool, operands [][]byte) ([]byte, error) {
	if !hasExisting {
		existing, operands = operands[0], operands[1:]
	}
	return xorAll(dst, existing, operands), nil
}

// PartialMerge is the same fold with the oldest operand as the value
// (AssociativeMergeOperator::PartialMerge through PartialMergeMulti).
func (bytesXOROperator) PartialMerge(dst, _ []byte, operands [][]byte) ([]byte, bool) {
	return xorAll(dst, operands[0], operands[1:]), true
}

// xorAll appends base to dst and XORs each operand into that copy, growing
// it with an operand's tail where the operand is longer.
func xorAll(dst, base []byte, operands [][]byte) []byte {
	start := len(dst)
	dst = append(dst, base...)
	for _, operand := range operands {
		value := dst[start:]
		common := min(len(value), len(operand))
		for i := 0; i < common; i++ {
			value[i] ^= operand[i]
		}
		dst = append(dst, operand[common:]...)
	}
	return dst
}
