package lsm

import (
	"encoding/binary"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/statistics"
)

// The row cache on the read path, RocksDB's TableCache::Get with
// Options::row_cache set (db/table_cache.cc).
//
// What is cached. A row is everything one table gives a point lookup of
// one user key: the newest entry at or below the read's sequence and, while
// the entries met are merge operands, the older ones under them, down to a
// value, a tombstone or the table's oldest entry. A row is kept only when
// the table held at least one such entry, as RocksDB inserts only a
// non-empty replay log. Entries are kept as the table stores them (a blob
// index stays an index), each with its sequence number, and replayed into
// the getter as the table would have delivered them: range tombstones,
// which the DB applies over all tables before any is read, and blob
// resolution then work on a hit exactly as on a miss.
//
// The key. RocksDB keys a row by the table's file number, the user key
// and a sequence key: 0 when the read sees the whole table, otherwise
// 1 + the read's sequence, so that a snapshot older than some of the
// table's entries never shares a row with a newer read. RocksDB gives the
// shared key to a read without a snapshot and to one whose snapshot is
// above the table's largest sequence; its comment notes that a snapshot
// equal to the largest would do as well. Here the rule is that exact
// visibility test, sequence >= the table's largest sequence, for every
// read. A table's file number is never reused, so a compaction that moves
// a key to a new table starts new rows, and the rows of deleted tables
// age out of the cache.
//
// A row, as cached: records one after another, each
//
//	uint64 little-endian  seq<<8 | kind
//	uvarint               value length
//	bytes                 value

// rowSeqKey is the sequence key of a row of table f read at seq.
func rowSeqKey(f *fileMeta, seq uint64) uint64 {
	if seq >= f.largestSeq {
		return 0
	}
	return 1 + seq
}

// getFromTableRows is getFromTable through the row cache.
func (db *DB) getFromTableRows(f *fileMeta, skipFilter bool, key []byte, seq uint64, g *getter) (bool, error) {
	seqKey := rowSeqKey(f, seq)
	h := db.rows.hash(f.num, seqKey, key)
	row, hit := db.rows.lookup(h, f.num, seqKey, key, g.row)
	g.row = row
	db.countRowCache(hit)
	if hit {
		g.noteLookup(nil, false, true, key) // a row holds what the table had
	} else {
		r, err := db.tableReader(f)
		if err != nil {
			return false, err
		}
		if db.tables != nil {
			defer db.tables.release(r) // also when a fault unwinds the lookup
		}
		g.recKind = base.KindSet
		found, err := tableGet(r, skipFilter, key, seq, g.rec)
		for found && err == nil && g.recKind == base.KindMerge && g.recSeq > 0 {
			found, err = tableGet(r, skipFilter, key, g.recSeq-1, g.rec)
		}
		g.noteLookup(r, skipFilter, found, key)
		if err != nil {
			return false, err
		}
		if len(g.row) == 0 {
			return false, nil
		}
		db.rows.insert(h, f.num, seqKey, key, g.row)
	}
	return g.replay(), nil
}

// record appends an entry the table delivers to the getter's row.
func (g *getter) record(value []byte, kind base.Kind, seq uint64) {
	g.recKind, g.recSeq = kind, seq
	g.row = binary.LittleEndian.AppendUint64(g.row, seq<<8|uint64(kind))
	g.row = binary.AppendUvarint(g.row, uint64(len(value)))
	g.row = append(g.row, value...)
}

// replay feeds the getter the entries of its row, as getFromTable feeds
// it a table's, and reports whether the lookup ends in this table.
func (g *getter) replay() bool {
	row := g.row
	for len(row) > 0 {
		trailer := binary.LittleEndian.Uint64(row)
		n, w := binary.Uvarint(row[8:])
		start := 8 + w
		g.onEntry(row[start:start+int(n)], base.Kind(trailer&0xff), trailer>>8)
		row = row[start+int(n):]
		if g.kind != base.KindMerge {
			return true
		}
	}
	return false
}

// countRowCache counts a row cache lookup.
func (db *DB) countRowCache(hit bool) {
	if s := db.tickers; s != nil {
		if hit {
			s.Add(statistics.RowCacheHit, 1)
		} else {
			s.Add(statistics.RowCacheMiss, 1)
		}
	}
}
