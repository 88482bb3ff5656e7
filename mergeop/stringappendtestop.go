package mergeop

// stringAppendTESTOperator is RocksDB's StringAppendTESTOperator
// (utilities/merge_operators/string_append/stringappend2.cc): the same joined
// result as StringAppendOperator through the general MergeOperator
// interface, whose PartialMergeMulti declines, so operands stay separate
// until a full merge.
type stringAppendTESTOperator struct{ delimiter string }

func (stringAppendTESTOperator) Name() string { return "StringAppendTESTOperator" }

func (o stringAppendTESTOperator) delimiterString() string { return o.delimiter }

// FullMerge is StringAppendTESTOperator::FullMergeV2.
func (o stringAppendTESTOperator) FullMerge(dst, _, existing []byte, hasExisting bool, operands [][]byte) ([]byte, error) {
	return appendJoined(dst, o.delimiter, existing, hasExisting, operands), nil
}

// PartialMerge declines, as StringAppendTESTOperator::PartialMergeMulti
// returns false.
func (stringAppendTESTOperator) PartialMerge(dst, _ []byte, _ [][]byte) ([]byte, bool) {
	return dst, false
}
