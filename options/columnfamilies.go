package options

import "fmt"

// HotColumnFamilies is the number of column families db_bench opens with
// and spreads operations over at a time: NumHotColumnFamilies when it is
// above 0 and below NumColumnFamilies, else NumColumnFamilies; 1 (the
// default family alone) when NumColumnFamilies <= 1.
func (o *Options) HotColumnFamilies() int {
	if o.NumColumnFamilies <= 1 {
		return 1
	}
	if o.NumHotColumnFamilies > 0 && o.NumHotColumnFamilies < o.NumColumnFamilies {
		return o.NumHotColumnFamilies
	}
	return o.NumColumnFamilies
}

// ColumnFamilyName is db_bench's name of column family i: "default" for 0,
// "column_family_name_" and i in six or more digits otherwise
// ("column_family_name_000001").
func ColumnFamilyName(i int) string {
	if i == 0 {
		return "default"
	}
	return fmt.Sprintf("column_family_name_%06d", i)
}
