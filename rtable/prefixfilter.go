package rtable

// Prefix filters. A table written with WriterOptions.FilterPrefixLen = N
// > 0 adds to its filter the first N bytes of every user key at least N
// bytes long (RocksDB's fixed prefix extractor; a shorter key is outside
// its domain and adds no prefix), hashed whole with hashBytes, and the
// whole keys too (hashed as without prefixes) unless
// WriterOptions.PrefixOnlyFilter is set (RocksDB's whole_key_filtering
// false). The meta section of format version 3 records N and whether
// whole keys are in; an older table's filter holds whole keys only.
//
// A reader probes only what the table holds, with the table's own N, so a
// table written under another prefix setting reads correctly, only
// without prefix probes when the lengths differ:
//
//   - Get and MayContain probe the whole key when whole keys are in;
//     otherwise the key's prefix when the key is in the prefix's domain;
//     otherwise they do not probe.
//   - MayContainPrefix(p) probes only when the table's prefixes are
//     len(p) bytes long.

// maxFilterPrefixLen bounds the prefix length a meta section may record.
const maxFilterPrefixLen = 1 << 20

// appendPrefixHashes appends to hashes the hash of each distinct prefix
// of the writer's keys (they are sorted, so equal prefixes are adjacent).
func (w *Writer) appendPrefixHashes(hashes []uint64) []uint64 {
	n := w.opts.FilterPrefixLen
	var last []byte
	for i := range w.props.NumEntries {
		k := w.key(i)
		if len(k) < n || last != nil && string(k[:n]) == string(last) {
			continue
		}
		last = k[:n]
		hashes = append(hashes, hashBytes(last))
	}
	return hashes
}

// prefixMayMatch is Get's probe of a filter of prefixes only: false when
// userKey is in the prefix domain and its prefix is ruled out.
func (r *Reader) prefixMayMatch(userKey []byte) bool {
	n := r.m.filterPrefixLen
	return uint64(len(userKey)) < n || r.filter.MayContain(hashBytes(userKey[:n]))
}

// MayContainPrefix reports whether the table may hold a user key starting
// with prefix. It probes the filter only when the filter holds prefixes
// of len(prefix) bytes (probed); otherwise it answers true.
func (r *Reader) MayContainPrefix(prefix []byte) (mayContain, probed bool) {
	if !r.hasFilter || r.m.filterPrefixLen == 0 || r.m.filterPrefixLen != uint64(len(prefix)) {
		return true, false
	}
	return r.filter.MayContain(hashBytes(prefix)), true
}
