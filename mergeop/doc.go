// Package mergeop holds db_bench 7.8.3's merge operators, found by the names
// its --merge_operator flag accepts (RocksDB's MergeOperator::CreateFromString),
// each producing byte for byte what RocksDB's C++ operator of that name
// produces.
//
// Contract:
//   - An Operator is stateless and safe for concurrent use.
//   - Operands are passed oldest first. FullMerge applies them to an existing
//     value (or to none) and appends the result to dst; PartialMerge combines
//     two or more adjacent operands into one operand, or declines (ok false)
//     where RocksDB's operator declines, and then the caller keeps the
//     operands as they are.
//   - dst never overlaps key, existing or operands; both methods append to
//     dst and return the extended slice, so a caller that reuses dst[:0]
//     merges without allocating once dst has grown (sortlist excepted: it
//     builds integer lists).
//   - Lookup("") is (nil, nil): db_bench runs without a merge operator.
//
// The operators and their RocksDB names (Name(), the value of the OPTIONS
// file's merge_operator= line):
//
//	put, put_v1, PutOperator               PutOperator
//	uint64add, UInt64AddOperator           UInt64AddOperator
//	max, MaxOperator                       MaxOperator
//	bytesxor, BytesXOR                     BytesXOR
//	stringappend, StringAppendOperator     StringAppendOperator (delimiter ",")
//	stringappendtest, StringAppendTESTOperator
//	                                       StringAppendTESTOperator (delimiter ",")
//	sortlist, MergeSortOperator            MergeSortOperator
//
// RocksDB 7.8.3 accepts no "put_v2": db_bench 7.8.3 refuses it like any
// unknown name, and so does Lookup.
package mergeop
