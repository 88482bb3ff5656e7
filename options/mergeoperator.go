package options

import (
	"fmt"

	"github.com/godbbench/godbbench/mergeop"
)

// setMergeOperatorFile reads an OPTIONS file's merge_operator value:
// "nullptr" (none), a class name ("PutOperator"), or the struct form RocksDB
// writes for the string-append operators
// ("{id=StringAppendOperator;delimiter=,;}"). MergeOperator keeps the text,
// which RocksDB's MergeOperator::CreateFromString and mergeop.Lookup both
// read.
func setMergeOperatorFile(o *Options, v string) (bool, error) {
	if v == "nullptr" {
		v = ""
	}
	if _, err := mergeop.Lookup(v); err != nil {
		return false, fmt.Errorf("merge_operator %q: %w", v, err)
	}
	old := o.MergeOperator
	o.MergeOperator = v
	return old != v, nil
}
