package mergeop

// Operator is one merge operator: RocksDB's MergeOperator, reduced to the two
// operations an LSM needs.
type Operator interface {
	// Name is RocksDB's MergeOperator::Name(), the operator's class name.
	Name() string

	// FullMerge appends to dst the value that results from applying operands
	// (oldest first, at least one) to existing, or to no value when
	// hasExisting is false (existing is then ignored). An error means the
	// operands cannot be merged (RocksDB's operator would fail or abort).
	FullMerge(dst, key, existing []byte, hasExisting bool, operands [][]byte) ([]byte, error)

	// PartialMerge appends to dst one operand equivalent to operands (oldest
	// first, at least two) applied in order, and reports ok true; it reports
	// ok false, leaving dst as it was, where the operator does not combine
	// operands without a base value.
	PartialMerge(dst, key []byte, operands [][]byte) (out []byte, ok bool)
}
