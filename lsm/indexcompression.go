package lsm

import (
	"fmt"
	"strconv"

	"github.com/godbbench/godbbench/options"
)

// indexCompressionKey is where Options.Extra holds --enable_index_compression
// when it is set away from its default.
const indexCompressionKey = "block_based_table_factory.enable_index_compression"

// indexCompression reports whether new tables compress their index block
// with the table's codec: RocksDB's enable_index_compression, true unless
// the option says otherwise.
func indexCompression(o *options.Options) (bool, error) {
	v, ok := o.Extra[indexCompressionKey]
	if !ok {
		return true, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("lsm: option enable_index_compression=%q: %w", v, err)
	}
	return on, nil
}
