package sst

import "github.com/godbbench/godbbench/internal/base"

// GetSkippingFilter is Get without consulting the table's filter, for a
// lookup that expects to find its key (RocksDB's skip_filters, set by
// optimize_filters_for_hits on the last non-empty level): the filter's
// probe is saved, and no filter counter moves.
func (r *Reader) GetSkippingFilter(userKey []byte, snapshot uint64, fn func(value []byte, kind base.Kind, seq uint64)) (bool, error) {
	return r.lookup(userKey, snapshot, fn)
}
