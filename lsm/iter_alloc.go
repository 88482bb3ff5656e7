package lsm

import (
	"sync"

	"github.com/godbbench/godbbench/internal/rangedel"
	"github.com/godbbench/godbbench/sst"
)

// iterBundle is one allocation holding an Iterator's state and the merging
// iterator, child adapters and heap that NewIter would otherwise allocate
// one by one.
//
// Why: a short scan (the profiles workload: seek, up to 100 steps) or a
// bounded seekrandom builds a new iterator per operation. Built piece by
// piece that was 11 allocations (~1.4 KiB) per NewIter, ~0.5 us of a
// 6-12 us scan plus the GC work they cause; the bundle is one allocation
// (1.3 KiB then, 2.5 KiB now). Sources beyond the inline capacity (more
// memtables, L0 tables or levels than below) fall back to separate
// allocations, so nothing is ever refused.
//
// Bundles are pooled (getBundle, putBundle): seekrandom, as db_bench runs
// it, makes an iterator per seek, and a fresh 2.5 KiB bundle per seek was
// 72% of the bytes that benchmark allocated (1M keys, --profile=heap),
// about 40 collections a second, each new bundle on lines the cache had
// not seen. The caller holds an Iterator, a handle that Close empties, so
// an iterator used after Close reaches nothing (iter_handle.go) rather
// than the next iterator's state.
type iterBundle struct {
	it       dbIter
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
	own := l.slot.own
	*l = levelIter{db: db, files: files, idx: -1, keysOnly: keysOnly}
	l.slot.own = own
	return l
}

var bundlePool = sync.Pool{New: func() any { return new(iterBundle) }}

// maxKeptBuffer is the largest byte buffer a pooled bundle keeps; a larger
// one (a scan of large values) is left to the collector.
const maxKeptBuffer = 64 << 10

// getBundle returns an empty bundle, its byte buffers kept from an
// earlier iterator.
func getBundle() *iterBundle { return bundlePool.Get().(*iterBundle) }

// putBundle empties b, whose iterator is closed, and pools it: every
// reference it held (read state, tables, sources) is dropped, and only
// its byte buffers, emptied, and its table slots' sst.Iters, emptied by
// Reset(nil), are kept.
func putBundle(b *iterBundle) {
	it := &b.it
	keyBuf, seekBuf, succBuf, valBuf := it.keyBuf, it.seekBuf, it.succBuf, it.valBuf
	bounds := it.boundBufs
	var tables [bundleTables]*sst.Iter
	var levels [bundleLevels]*sst.Iter
	for i := range b.tables {
		tables[i] = emptied(b.tables[i].own, i < b.nTables)
	}
	for i := range b.levels {
		levels[i] = emptied(b.levels[i].slot.own, i < b.nLevels)
	}
	*b = iterBundle{}
	it.keyBuf, it.seekBuf, it.succBuf, it.valBuf = keptBuffer(keyBuf), keptBuffer(seekBuf), keptBuffer(succBuf), keptBuffer(valBuf)
	it.boundBufs = [2][]byte{keptBuffer(bounds[0]), keptBuffer(bounds[1])}
	for i := range b.tables {
		b.tables[i].own = tables[i]
	}
	for i := range b.levels {
		b.levels[i].slot.own = levels[i]
	}
	bundlePool.Put(b)
}

// emptied is a slot's closed sst.Iter, emptied when this iterator used
// the slot (the others were emptied when their user closed).
func emptied(t *sst.Iter, used bool) *sst.Iter {
	if t != nil && used {
		t.Reset(nil)
	}
	return t
}

// keptBuffer is b emptied, or nil when it is too large to keep.
func keptBuffer(b []byte) []byte {
	if cap(b) > maxKeptBuffer {
		return nil
	}
	return b[:0]
}

// copyBound copies an iterator bound into *buf, growing it as needed; an
// empty bound stays non-nil.
func copyBound(buf *[]byte, bound []byte) []byte {
	if *buf == nil {
		*buf = make([]byte, 0, len(bound))
	}
	*buf = append((*buf)[:0], bound...)
	return *buf
}
