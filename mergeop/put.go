package mergeop

// putOperator is RocksDB's PutOperator (utilities/merge_operators/put.cc):
// a merge behaves as a Put of its operand, so the newest operand wins and the
// existing value is ignored. "put" (PutOperatorV2) and "put_v1" (the
// deprecated PutOperator) produce the same bytes and share the name.
type putOperator struct{}

func (putOperator) Name() string { return "PutOperator" }

// FullMerge is PutOperatorV2::FullMergeV2: the last operand.
func (putOperator) FullMerge(dst, _, _ []byte, _ bool, operands [][]byte) ([]byte, error) {
	return append(dst, operands[len(operands)-1]...), nil
}

// PartialMerge is PutOperator::PartialMergeMulti: the last operand.
func (putOperator) PartialMerge(dst, _ []byte, operands [][]byte) ([]byte, bool) {
	return append(dst, operands[len(operands)-1]...), true
}
