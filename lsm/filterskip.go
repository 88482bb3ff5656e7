package lsm

import "github.com/godbbench/godbbench/internal/base"

// optimize_filters_for_hits on the read side, as RocksDB 7.8.3's
// Version::IsFilterSkipped decides it: a point lookup that reaches the
// last non-empty level has missed every level above it, and under the
// option's assumption (lookups mostly find their keys) will find its key
// there, so the filters of that level are not consulted. In L0 only the
// last table searched (the oldest) counts as the end of the level, since
// a key missing from a newer L0 table may still be in an older one. The
// write side (table.go) leaves bottommost compaction outputs without a
// filter; this covers the tables of that level written with one (flushes
// to an otherwise empty DB, or tables written before the option was set).

// filterSkipper is a table reader whose lookup can leave its filter out
// (sst.Reader, rtable.Reader).
type filterSkipper interface {
	GetSkippingFilter(userKey []byte, snapshot uint64, fn func(value []byte, kind base.Kind, seq uint64)) (bool, error)
}

// noFilterSkip is filterSkipLevel's answer when no level skips its filters.
const noFilterSkip = -1

// filterSkipLevel returns the level of v whose filters point lookups skip:
// its last non-empty level under optimize_filters_for_hits, else
// noFilterSkip.
func (db *DB) filterSkipLevel(v *version) int {
	if !db.opts.OptimizeFiltersForHits {
		return noFilterSkip
	}
	for level := len(v.levels) - 1; level >= 0; level-- {
		if len(v.levels[level]) > 0 {
			return level
		}
	}
	return noFilterSkip
}

// tableGet is t.Get, without the filter when skipFilter is set.
func tableGet(t *openTable, skipFilter bool, key []byte, seq uint64, fn func(value []byte, kind base.Kind, seq uint64)) (bool, error) {
	if skipFilter {
		if s, ok := t.tableReader.(filterSkipper); ok {
			return s.GetSkippingFilter(key, seq, fn)
		}
	}
	return t.Get(key, seq, fn)
}
