package lsm

import (
	"math"
	"sync"
	"syscall"

	"github.com/godbbench/godbbench/internal/statistics"
)

// The table cache bounds how many table readers (and so table file
// descriptors and mappings) are open at once, as RocksDB's max_open_files
// does.
//
// max_open_files = -1 (the default) is unlimited: a table is opened on
// first use and its reader stays open, held by its fileMeta, until the
// last version listing the file is released (releaseVersion) or the DB
// closes. db.tables is then nil, tableReader is one atomic load once the
// table is open, and releaseTable is a nil check: no lock and no
// allocation per read.
//
// Any other value is clipped, as RocksDB's SanitizeOptions clips it, to
// the process's file limit (RLIMIT_NOFILE's soft limit, 0x400000 when it
// cannot be read) and then raised to at least 20. The Go runtime raises
// the soft limit to the hard one at start, so the limit is the hard one
// where C++ db_bench would see the shell's soft limit. RocksDB's table
// cache gets max_open_files - 10 entries, the
// ten left for the WAL, MANIFEST, LOG and the like. db.tables then holds
// at most that many table readers open:
//
//   - Every user of a reader pins it: tableReader pins, releaseTable
//     unpins. A Get pins a table for its lookup in it, an iterator (a
//     level walk, an L0 table's iterator, a compaction input) for as long
//     as it reads the table. A pinned reader is never closed.
//   - An unpinned reader waits in a least-recently-used list. When opening
//     a table, or unpinning one, leaves more readers open than the
//     capacity, the least recently used unpinned readers are closed (their
//     mappings unmapped) until it does not, or until every open reader is
//     pinned: like RocksDB's LRU table cache, the capacity is exceeded
//     while more tables than it are in use at once, never by an unused
//     reader.
//   - A table whose file leaves the last version (a compaction deleted
//     it) is detached from its fileMeta; the file is removed at once, and
//     a reader still pinned keeps reading it (its descriptor keeps the
//     inode) and is closed when the last pin drops.
//
// Opens of table readers count as rocksdb.no.file.opens and failed opens
// as rocksdb.no.file.errors (RocksDB also counts the open of a file whose
// table then fails to load; here such a failure is an error only). One
// mutex guards the whole cache: table_cache_numshardbits is not applied,
// since RocksDB's per-shard capacities could hold more readers open than
// max_open_files - 10. Blob files keep their readers outside the bound
// (blob_file.go), where RocksDB's blob file cache shares the table
// cache's capacity.

// tableCacheReserved is how many of max_open_files RocksDB keeps for files
// other than tables.
const tableCacheReserved = 10

// minMaxOpenFiles is the smallest max_open_files RocksDB runs with.
const minMaxOpenFiles = 20

// unknownFileLimit is the file limit RocksDB assumes when the process's
// cannot be read.
const unknownFileLimit = 0x400000

// tableCacheCapacity is the number of table readers max_open_files lets
// the DB hold open in a process that may open fileLimit files; 0 means
// unlimited.
func tableCacheCapacity(maxOpenFiles, fileLimit int) int {
	if maxOpenFiles == -1 {
		return 0
	}
	return max(min(maxOpenFiles, fileLimit), minMaxOpenFiles) - tableCacheReserved
}

// processFileLimit is RLIMIT_NOFILE's soft limit as RocksDB's
// port::GetMaxOpenFiles reads it: at most math.MaxInt32, and
// unknownFileLimit when getrlimit fails.
func processFileLimit() int {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return unknownFileLimit
	}
	return int(min(uint64(l.Cur), math.MaxInt32))
}

// newTableCache returns the table cache for max_open_files, nil when
// unlimited.
func newTableCache(maxOpenFiles int) *tableCache {
	n := tableCacheCapacity(maxOpenFiles, processFileLimit())
	if n == 0 {
		return nil
	}
	c := &tableCache{capacity: n}
	c.lru.cached.next, c.lru.cached.prev = &c.lru, &c.lru
	return c
}

// tableCache is the bounded set of open table readers.
type tableCache struct {
	capacity int
	mu       sync.Mutex
	// open counts the readers open: attached to their fileMeta or
	// detached and still pinned. Guarded by mu.
	open int
	// lru is the sentinel of the ring of unpinned attached readers, least
	// recently used first (lru.next). Guarded by mu.
	lru openTable
}

// tableCacheEntry is an open table's state in the table cache; every
// field is guarded by tableCache.mu.
type tableCacheEntry struct {
	file *fileMeta
	pins int
	// detached: the reader is no longer its fileMeta's, and closes when
	// pins drops to zero.
	detached bool
	// prev and next link the reader into tableCache.lru while it is
	// attached and unpinned.
	prev, next *openTable
}

// acquire returns f's reader pinned, opening it (and closing the least
// recently used unpinned readers over the capacity) when it is not open.
func (c *tableCache) acquire(db *DB, f *fileMeta) (*openTable, error) {
	if t := c.pinOpen(f); t != nil {
		return t, nil
	}
	// One opener per file; readers of other files go on meanwhile.
	f.openMu.Lock()
	defer f.openMu.Unlock()
	if t := c.pinOpen(f); t != nil {
		return t, nil
	}
	t, err := db.openTableOf(f)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	t.cached.pins, t.cached.file = 1, f
	c.open++
	f.reader.Store(t)
	victim := c.popVictimLocked()
	c.mu.Unlock()
	c.closeVictims(victim)
	return t, nil
}

// pinOpen pins and returns f's reader when it is open, or returns nil.
func (c *tableCache) pinOpen(f *fileMeta) *openTable {
	c.mu.Lock()
	t := f.reader.Load()
	if t != nil {
		if t.cached.pins == 0 {
			c.unlinkLocked(t)
		}
		t.cached.pins++
	}
	c.mu.Unlock()
	return t
}

// release unpins t: a detached reader closes with its last pin, an
// attached one becomes the most recently used unpinned reader.
func (c *tableCache) release(t *openTable) {
	c.mu.Lock()
	t.cached.pins--
	var victim *openTable
	if t.cached.pins == 0 {
		if t.cached.detached {
			c.open--
			victim = t
		} else {
			c.linkLocked(t)
			victim = c.popVictimLocked()
		}
	}
	c.mu.Unlock()
	c.closeVictims(victim)
}

// drop detaches f's reader when f left the last version or the DB
// closes: closed now when unpinned, else when its last pin drops.
func (c *tableCache) drop(f *fileMeta) {
	c.mu.Lock()
	t := f.reader.Swap(nil)
	if t == nil {
		c.mu.Unlock()
		return
	}
	t.cached.detached = true
	if t.cached.pins > 0 {
		c.mu.Unlock()
		return
	}
	c.unlinkLocked(t)
	c.open--
	c.mu.Unlock()
	t.Close()
}

// popVictimLocked detaches and returns the least recently used unpinned
// reader when more readers than the capacity are open, else nil.
func (c *tableCache) popVictimLocked() *openTable {
	if c.open <= c.capacity || c.lru.cached.next == &c.lru {
		return nil
	}
	t := c.lru.cached.next
	c.unlinkLocked(t)
	t.cached.detached = true
	t.cached.file.reader.Store(nil)
	c.open--
	return t
}

// closeVictims closes victim and then any further readers over the
// capacity, one lock hold per reader so that no close runs under mu.
func (c *tableCache) closeVictims(victim *openTable) {
	for victim != nil {
		victim.Close()
		c.mu.Lock()
		victim = c.popVictimLocked()
		c.mu.Unlock()
	}
}

// linkLocked appends t to the LRU ring as its most recently used reader.
func (c *tableCache) linkLocked(t *openTable) {
	last := c.lru.cached.prev
	t.cached.prev, t.cached.next = last, &c.lru
	last.cached.next = t
	c.lru.cached.prev = t
}

// unlinkLocked takes t out of the LRU ring.
func (c *tableCache) unlinkLocked(t *openTable) {
	t.cached.prev.cached.next = t.cached.next
	t.cached.next.cached.prev = t.cached.prev
	t.cached.prev, t.cached.next = nil, nil
}

// openTableReader is tableReader's way when it cannot answer with one
// atomic load: through the table cache, or opening the table once.
func (db *DB) openTableReader(f *fileMeta) (*openTable, error) {
	if db.tables != nil {
		return db.tables.acquire(db, f)
	}
	f.openMu.Lock()
	defer f.openMu.Unlock()
	if t := f.reader.Load(); t != nil {
		return t, nil
	}
	t, err := db.openTableOf(f)
	if err != nil {
		return nil, err
	}
	f.reader.Store(t)
	return t, nil
}

// getFromPinnedTable is getFromTable through the table cache.
func (db *DB) getFromPinnedTable(f *fileMeta, skipFilter bool, key []byte, seq uint64, g *getter) (bool, error) {
	r, err := db.tables.acquire(db, f)
	if err != nil {
		return false, err
	}
	defer db.tables.release(r) // also when a fault unwinds the lookup
	return getInTable(r, skipFilter, key, seq, g)
}

// openTableOf opens f's table, counting the open or its failure.
func (db *DB) openTableOf(f *fileMeta) (*openTable, error) {
	t, err := db.openTableFile(tableName(db.dir, f.num), int64(f.size), f.num, db.pinsIndexAndFilter(f))
	if err != nil {
		db.tickers.Add(statistics.NoFileErrors, 1)
		return nil, err
	}
	db.tickers.Add(statistics.NoFileOpens, 1)
	return t, nil
}

// openReaders reports how many table readers are open (tests).
func (c *tableCache) openReaders() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.open
}

// releaseTable unpins a reader tableReader returned; without a table
// cache (max_open_files = -1) it does nothing.
func (db *DB) releaseTable(t *openTable) {
	if db.tables != nil {
		db.tables.release(t)
	}
}

// dropTableReader closes f's reader, or with a table cache detaches it to
// close when its last pin drops; f is leaving the last version or the DB
// is closing.
func (db *DB) dropTableReader(f *fileMeta) {
	if db.tables != nil {
		db.tables.drop(f)
		return
	}
	if t := f.reader.Swap(nil); t != nil {
		t.Close()
	}
}

// pinnedIter is a table's iterator that releases its pin on the table's
// reader when closed.
type pinnedIter struct {
	internalIter
	db    *DB
	table *openTable
}

func (p *pinnedIter) Close() error {
	err := p.internalIter.Close()
	if p.table != nil {
		p.db.releaseTable(p.table)
		p.table = nil
	}
	return err
}

// pinIter ties the pin on t, taken by tableReader, to it, t's iterator:
// closing the iterator releases it. Without a table cache it returns it.
func (db *DB) pinIter(t *openTable, it internalIter) internalIter {
	if db.tables == nil {
		return it
	}
	return &pinnedIter{internalIter: it, db: db, table: t}
}
