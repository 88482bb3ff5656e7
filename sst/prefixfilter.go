package sst

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Prefix filters. A table written with WriterOptions.FilterPrefixLen = N
// > 0 adds to its filter the first N bytes of every user key at least N
// bytes long (RocksDB's fixed prefix extractor, rocksdb.FixedPrefix.N;
// shorter keys are outside its domain and add no prefix), and the whole
// user keys too unless WriterOptions.PrefixOnlyFilter is set (RocksDB's
// whole_key_filtering=false). Both go through hashKey into the one
// bloom filter, as in RocksDB's full filters.
//
// What the filter holds is recorded in the properties block (doc.go):
// the prefix length and whether whole keys are in it. A table without
// that record holds whole keys only. A reader probes only what the table
// holds, with the table's own prefix length, so a table written under
// another prefix setting is read correctly, just without a prefix probe
// when the lengths differ (RocksDB likewise ignores a filter built by
// another extractor):
//
//   - Get probes the whole key when whole keys are in; otherwise the
//     key's prefix when the key is in the prefix's domain; otherwise it
//     does not probe.
//   - MayContainPrefix(p) answers false only when the table's prefixes
//     are len(p) bytes long and the filter rules p out.

// addFilterKeys adds userKey, the first entry of a user key, to the
// pending filter hashes: its prefix when it starts a new one (prev is the
// previous user key, nil for the table's first) and the whole key.
func (w *Writer) addFilterKeys(userKey, prev []byte) {
	n := w.opts.FilterPrefixLen
	if n > 0 && len(userKey) >= n && (len(prev) < n || !bytes.Equal(prev[:n], userKey[:n])) {
		w.filter.add(hashKey(userKey[:n]))
	}
	if n <= 0 || !w.opts.PrefixOnlyFilter {
		w.filter.add(hashKey(userKey))
	}
}

// getFilterKey is what Get probes the filter with for userKey; ok is
// false when the filter cannot answer for it.
func (r *Reader) getFilterKey(userKey []byte) (probe []byte, ok bool) {
	if !r.props.PrefixOnlyFilter {
		return userKey, true
	}
	if n := r.props.FilterPrefixLen; len(userKey) >= n {
		return userKey[:n], true
	}
	return nil, false
}

// MayContainPrefix reports whether the table may hold a user key starting
// with prefix: false only when the filter holds prefixes of len(prefix)
// bytes and rules this one out. It counts its verdict in RocksDB's
// prefix filter tickers when it probes.
func (r *Reader) MayContainPrefix(prefix []byte) bool {
	if !r.hasFilter || r.props.FilterPrefixLen == 0 || r.props.FilterPrefixLen != len(prefix) {
		return true
	}
	if r.partitionedFilter() {
		return r.countPrefixFilter(r.prefixMayMatch(prefix))
	}
	return r.countPrefixFilter(r.filter.MayContain(hashKey(prefix)))
}

// encodeFilterContents appends the properties' filter-contents fields
// (doc.go): nothing for a filter of whole keys only; else, after the
// range-deletion fields (three zeros standing for them when the table has
// no range tombstones), uvarint prefix length and uvarint 1 when whole
// keys are in the filter, 0 when not.
func (p *Properties) encodeFilterContents(dst []byte) []byte {
	if p.FilterPrefixLen == 0 {
		return dst
	}
	if p.NumRangeDeletions == 0 {
		dst = append(dst, 0, 0, 0)
	}
	dst = binary.AppendUvarint(dst, uint64(p.FilterPrefixLen))
	whole := uint64(1)
	if p.PrefixOnlyFilter {
		whole = 0
	}
	return binary.AppendUvarint(dst, whole)
}

// decodeFilterContents parses the filter-contents fields from b, which
// follow the range-deletion fields, and returns what follows them.
func (p *Properties) decodeFilterContents(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return b, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n == 0 || n > MaxKeyLen {
		return b, fmt.Errorf("bad filter prefix length property")
	}
	b = b[k:]
	whole, k := binary.Uvarint(b)
	if k <= 0 || whole > 1 {
		return b, fmt.Errorf("bad whole-key filter property")
	}
	p.FilterPrefixLen, p.PrefixOnlyFilter = int(n), whole == 0
	return b[k:], nil
}

// MayContainPrefix is the table's MayContainPrefix.
func (it *Iter) MayContainPrefix(prefix []byte) bool { return it.r.MayContainPrefix(prefix) }
