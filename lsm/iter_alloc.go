package lsm

import "github.com/godbbench/godbbench/internal/rangedel"

// iterBundle is one allocation holding an Iterator and the merging iterator,
// child adapters and heap that NewIter would otherwise allocate one by one.
//
// Why: a short scan (the profiles workload: seek, up to 100 steps) or a
// bounded seekrandom builds a new iterator per operation. Built piece by
// piece that was 11 allocations (~1.4 KiB) per NewIter, ~0.5 us of a
// 6-12 us scan plus the GC work they cause; the bundle is one 1.3 KiB
// allocation. Sources beyond the inline capacity (more memtables, L0 tables
// or levels than below) fall back to separate allocations, so nothing is
// ever refused. The bundle is not pooled: a pooled iterator used after its
// Close would silently read another iterator's state.
type iterBundle struct {
	it       Iterator
	merge    mergingIter
	children [bundleMems + bundleTables + bundleLevels]internalIter
	heap     [bundleMems + bundleTables + bundleLevels]mergeEntry
	mems     [bundleMems]memIter
	tables   [bundleTables]tableIter
	levels   [bundleLevels]levelIter
	nMems    int
	nTables  int
	nLevels  int
	// dels backs Iterator.dels: a memtable's and the version's lists.
	dels [2]rangedel.Cursor
}

// Inline capacities: the active memtable plus one immutable one
// (max_write_buffer_number defaults to 2), 4 L0 tables (the compaction
// trigger) and 4 non-empty levels below L0 (slots are taken in order, not
// by level number). A heap slot is 48 bytes and a level iterator 64, so
// each extra inline source costs 64-130 bytes on every iterator, used or
// not.
const (
	bundleMems   = 2
	bundleTables = 4
	bundleLevels = 4
)

func (b *iterBundle) memIter(m *memTable) *memIter {
	var mi *memIter
	if b.nMems < len(b.mems) {
		mi = &b.mems[b.nMems]
		b.nMems++
	} else {
		mi = new(memIter)
	}
	mi.setIter(m.rep.NewIter())
	mi.bloom = m.bloom
	return mi
}

// tableIter returns an iterator over t resolving blob indexes through db,
// a block-format one in the next inline slot while there is one.
func (b *iterBundle) tableIter(db *DB, t *openTable, keysOnly bool) internalIter {
	var slot *tableIter
	if t.format == formatBlock && b.nTables < len(b.tables) {
		slot = &b.tables[b.nTables]
		b.nTables++
	}
	return newTableIter(t, tableIterOptions{block: slot, fillCache: true, keysOnly: keysOnly, blobs: db, tableReadIO: db.io.userReads})
}

func (b *iterBundle) levelIter(db *DB, files []*fileMeta, keysOnly bool) *levelIter {
	var l *levelIter
	if b.nLevels < len(b.levels) {
		l = &b.levels[b.nLevels]
		b.nLevels++
	} else {
		l = new(levelIter)
	}
	*l = levelIter{db: db, files: files, idx: -1, keysOnly: keysOnly}
	return l
}
