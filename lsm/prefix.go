package lsm

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/godbbench/godbbench/options"
)

// The prefix extractor. With options.Options.PrefixSize = N > 0 the DB
// has RocksDB's fixed prefix extractor (rocksdb.FixedPrefix.N): the
// prefix of a key of at least N bytes is its first N bytes; a shorter key
// is outside the extractor's domain and has no prefix. The extractor
// makes:
//
//   - table filters hold prefixes, and whole keys unless
//     whole_key_filtering is false (sst's and rtable's prefixfilter.go);
//   - with memtable_prefix_bloom_size_ratio > 0, a memtable bloom filter
//     of prefixes, and whole keys with memtable_whole_key_filtering
//     (memtable_bloom.go);
//   - prefix seeks possible (IterOptions.PrefixSameAsStart, AutoPrefix;
//     iter_prefix.go).
//
// Reopening with another prefix setting is allowed: every table records
// what its filter holds and is probed only with that (a table of another
// prefix length is simply not skipped by prefix), and memtables are
// rebuilt from the WAL under the new setting, so no setting gives a wrong
// answer. RocksDB likewise ignores filters made by another extractor.

// prefixExtractor is the fixed prefix length; 0: no extractor.
type prefixExtractor int

// inDomain reports whether key has a prefix.
func (p prefixExtractor) inDomain(key []byte) bool { return p > 0 && len(key) >= int(p) }

// of is the prefix of key, which must be in the domain.
func (p prefixExtractor) of(key []byte) []byte { return key[:p] }

// samePrefix reports whether key is in the domain with prefix.
func (p prefixExtractor) samePrefix(key, prefix []byte) bool {
	return len(key) >= int(p) && bytes.Equal(key[:p], prefix)
}

// memBloomMaxRatio bounds memtable_prefix_bloom_size_ratio as RocksDB
// does (at most a quarter of write_buffer_size).
const memBloomMaxRatio = 0.25

// preparePrefixOptions sets the prefix extractor, the table filters'
// contents and the memtable bloom's size from o (after tableOpts).
func (db *DB) preparePrefixOptions(o *options.Options) error {
	if o.PrefixSize < 0 {
		return fmt.Errorf("lsm: prefix_size %d is negative", o.PrefixSize)
	}
	db.prefix = prefixExtractor(o.PrefixSize)
	for level := range db.tableOpts {
		t := &db.tableOpts[level]
		switch {
		case db.prefix > 0:
			t.FilterPrefixLen, t.PrefixOnlyFilter = int(db.prefix), !o.WholeKeyFiltering
		case !o.WholeKeyFiltering:
			// Neither keys nor prefixes: RocksDB's filter then answers
			// "may contain" for everything, which is no filter.
			t.BloomBitsPerKey = 0
		}
	}
	whole := false
	if v, ok := o.Extra["memtable_whole_key_filtering"]; ok {
		var err error
		if whole, err = strconv.ParseBool(v); err != nil {
			return fmt.Errorf("lsm: memtable_whole_key_filtering %q: %v", v, err)
		}
	}
	ratio := min(o.MemtableBloomSizeRatio, memBloomMaxRatio)
	db.memBloomBits, db.memBloomWhole, db.memPoints = 0, whole, false
	if ratio > 0 && (db.prefix > 0 || whole) {
		// RocksDB: write_buffer_size × ratio bytes, in bits.
		db.memBloomBits = uint64(float64(o.WriteBufferSize)*ratio) * 8
	}
	if db.memBloomBits == 0 && db.prefix == 0 {
		// No filter of RocksDB's: the native default (memtable_keyfilter.go).
		db.memBloomBits, db.memBloomWhole = defaultMemKeyFilterBits(o.WriteBufferSize), true
		db.memPoints = true
	}
	return nil
}
