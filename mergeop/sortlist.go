package mergeop

import (
	"fmt"
	"math"
	"strconv"
)

// sortListOperator is RocksDB's SortList, named MergeSortOperator
// (utilities/merge_operators/sortlist.cc): every operand is a list of
// decimal ints in ascending order, "1,5,9", and the merge is their merge
// sort, written back the same way.
//
// Operand format: tokens separated by ','; the list ends at the operand's
// end or at its first NUL byte (SortList::MakeVector scans to a NUL). Each
// token is read as std::stoi reads it: optional leading white space, an
// optional sign, at least one decimal digit, and nothing read after the
// digits; the value must fit in 32 bits. A token stoi refuses (empty, no
// digits, out of range) makes C++ db_bench abort with an uncaught exception;
// here FullMerge returns an error instead.
//
// SortList::FullMergeV2 ignores the existing value: the result is the merge
// of the operands alone. Its PartialMergeMulti, the one RocksDB calls,
// returns true with an empty result, which the next full merge cannot read;
// PartialMerge here declines instead, so operands stay whole.
type sortListOperator struct{}

func (sortListOperator) Name() string { return "MergeSortOperator" }

// FullMerge merges the operands' lists, oldest first, as
// SortList::FullMergeV2 does.
func (sortListOperator) FullMerge(dst, _, _ []byte, _ bool, operands [][]byte) ([]byte, error) {
	var merged []int32
	for _, operand := range operands {
		list, err := parseIntList(operand)
		if err != nil {
			return dst, err
		}
		merged = mergeSortedInts(merged, list)
	}
	for i, v := range merged {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(v), 10)
	}
	return dst, nil
}

// PartialMerge declines (see the type's comment).
func (sortListOperator) PartialMerge(dst, _ []byte, _ [][]byte) ([]byte, bool) {
	return dst, false
}

// parseIntList reads an operand as SortList::MakeVector does.
func parseIntList(operand []byte) ([]int32, error) {
	for i, c := range operand {
		if c == 0 {
			operand = operand[:i]
			break
		}
	}
	var list []int32
	start := 0
	for i := 0; i <= len(operand); i++ {
		if i < len(operand) && operand[i] != ',' {
			continue
		}
		v, err := stoi(operand[start:i])
		if err != nil {
			return nil, fmt.Errorf("MergeSortOperator: operand %q: %w", operand, err)
		}
		list = append(list, v)
		start = i + 1
	}
	return list, nil
}

// stoi reads token as std::stoi(token) with base 10 does, failing where it
// throws.
func stoi(token []byte) (int32, error) {
	i := 0
	for i < len(token) && isCSpace(token[i]) {
		i++
	}
	negative := false
	if i < len(token) && (token[i] == '+' || token[i] == '-') {
		negative = token[i] == '-'
		i++
	}
	digits := 0
	var magnitude uint64
	for ; i < len(token) && token[i] >= '0' && token[i] <= '9'; i++ {
		digits++
		if magnitude <= math.MaxInt32+1 {
			magnitude = magnitude*10 + uint64(token[i]-'0')
		}
	}
	if digits == 0 {
		return 0, fmt.Errorf("stoi: no conversion of %q", token)
	}
	if negative && magnitude <= math.MaxInt32+1 {
		return int32(-int64(magnitude)), nil
	}
	if !negative && magnitude <= math.MaxInt32 {
		return int32(magnitude), nil
	}
	return 0, fmt.Errorf("stoi: %q out of range", token)
}

// isCSpace is C's isspace in the "C" locale.
func isCSpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// mergeSortedInts is SortList::Merge: the two-way merge of left and right,
// taking from right on ties.
func mergeSortedInts(left, right []int32) []int32 {
	merged := make([]int32, 0, len(left)+len(right))
	l, r := 0, 0
	for l < len(left) && r < len(right) {
		if left[l] < right[r] {
			merged = append(merged, left[l])
			l++
		} else {
			merged = append(merged, right[r])
			r++
		}
	}
	merged = append(merged, left[l:]...)
	return append(merged, right[r:]...)
}
