package mergeop

// stringAppendOperator is RocksDB's StringAppendOperator
// (utilities/merge_operators/string_append/stringappend.cc), an
// AssociativeMergeOperator: the existing value and the operands joined by
// the delimiter, oldest first. An existing empty value still counts
// (",a"); without one the first operand begins the result.
type stringAppendOperator struct{ delimiter string }

func (stringAppendOperator) Name() string { return "StringAppendOperator" }

func (o stringAppendOperator) delimiterString() string { return o.delimiter }

// FullMerge folds StringAppendOperator::Merge over the operands.
func (o stringAppendOperator) FullMerge(dst, _, existing []byte, hasExisting bool, operands [][]byte) ([]byte, error) {
	return appendJoined(dst, o.delimiter, existing, hasExisting, operands), nil
}

// PartialMerge is Merge with the older operand as the existing value,
// folded over the operands: the operands joined by the delimiter.
func (o stringAppendOperator) PartialMerge(dst, _ []byte, operands [][]byte) ([]byte, bool) {
	return appendJoined(dst, o.delimiter, nil, false, operands), true
}

// appendJoined appends existing (when there is one) and the operands to
// dst with delimiter between each two.
func appendJoined(dst []byte, delimiter string, existing []byte, hasExisting bool, operands [][]byte) []byte {
	separate := hasExisting
	if hasExisting {
		dst = append(dst, existing...)
	}
	for _, operand := range operands {
		if separate {
			dst = append(dst, delimiter...)
		}
		dst = append(dst, operand...)
		separate = true
	}
	return dst
}
