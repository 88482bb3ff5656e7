package lsm

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/godbbench/godbbench/blob"
	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/mmapfault"
	"github.com/godbbench/godbbench/rtable"
	"github.com/godbbench/godbbench/sst"
)

// tableReader returns the open reader of f, opening it on first use in the
// format its footer names, pinned until releaseTable (tablecache.go). An
// open table without a table cache is an inlined atomic load.
func (db *DB) tableReader(f *fileMeta) (*openTable, error) {
	if db.tables == nil {
		if t := f.reader.Load(); t != nil {
			return t, nil
		}
	}
	return db.openTableReader(f)
}

// openTableFile opens the table file name of size bytes in the format its
// magic number names; pinned keeps a partitioned table's index and filter
// in its reader (pinl0.go). A fault reading a new mapping is an error.
func (db *DB) openTableFile(name string, size int64, num uint64, pinned bool) (_ *openTable, err error) {
	defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
	file, ra, direct, err := db.openTableForRead(name)
	if err != nil {
		return nil, fmt.Errorf("lsm: open table: %w", err)
	}
	if isRTable(ra, size) {
		if direct {
			// rtable maps its file: open it as ever.
			db.closeRead(file)
			if file, err = db.fs.OpenReadOnly(name); err != nil {
				return nil, fmt.Errorf("lsm: open table: %w", err)
			}
		}
		r, err := rtable.Open(file, size, rtable.ReaderOptions{Name: name})
		if err != nil {
			return nil, fmt.Errorf("lsm: open table %s: %w", name, err)
		}
		return &openTable{tableReader: r, format: formatRTable, rangeDels: r.RangeDels(), counts: db.fileCounts()}, nil
	}
	r, err := sst.Open(file, size, sst.ReaderOptions{
		Cache:           db.cache,
		Mmap:            db.opts.MmapRead,
		VerifyChecksums: db.opts.VerifyChecksum,
		FileNum:         num,
		Name:            name,
		Statistics:      db.tickers,
		Direct:          direct,
		GetReadCharge:   db.io.userReads.charge,
		FileOperations:  db.fileCounts(),
		// Partitions of partitioned tables go through the block cache.
		CacheIndexAndFilterBlocks: db.opts.CacheIndexAndFilterBlocks && !pinned,
	})
	if err != nil {
		return nil, fmt.Errorf("lsm: open table %s: %w", name, err)
	}
	return &openTable{tableReader: r, format: formatBlock, rangeDels: r.RangeDels(), counts: db.fileCounts()}, nil
}

// getter carries one Get through the table callbacks. Getters are pooled
// and their callback is a method value bound once, so a Get allocates
// nothing.
//
// Once a merge operand is met (merging), the getter collects operands in
// ops and the value under them as ops' base instead of calling fn, and the
// lookup goes on to older versions until kind is a value or a tombstone.
type getter struct {
	fn      func(value []byte)
	kind    base.Kind // kind of the last entry met
	seq     uint64    // sequence of the last entry met
	merging bool      // an operand was met, or operands were asked for
	// cover is the newest range tombstone covering the key (0: none): an
	// entry older than it counts as a tombstone.
	cover uint64
	ops   operandStack
	cb    func(value []byte, kind base.Kind, seq uint64)
	// db, key, blobBuf and err resolve blob indexes (blob_read.go).
	db      *DB
	key     []byte
	blobBuf blob.Buffer
	err     error
	// row, rec, recKind and recSeq carry a lookup through the row cache
	// (rowcache_get.go): the row read or recorded, the recording callback
	// bound once, and the last entry recorded.
	row     []byte
	rec     func(value []byte, kind base.Kind, seq uint64)
	recKind base.Kind
	recSeq  uint64
	// classify asks a table lookup that does not end the Get to record in
	// readData whether it read the table's data or its filter ruled the
	// key out (compaction_read.go).
	classify bool
	readData bool
}

var getterPool = sync.Pool{New: func() any { return newGetter() }}

func (g *getter) onEntry(value []byte, kind base.Kind, seq uint64) {
	if seq < g.cover {
		kind = base.KindDelete
	} else if kind == base.KindBlobIndex {
		value, kind = g.resolveBlob(value)
	}
	g.kind, g.seq = kind, seq
	switch {
	case kind == base.KindMerge:
		g.merging = true
		g.ops.push(value)
	case kind != base.KindSet:
	case g.merging:
		g.ops.setBase(value)
	case g.fn != nil:
		g.fn(value)
	}
}

// release returns g to the pool.
func (g *getter) release() {
	g.reset()
	getterPool.Put(g)
}

// reset readies g for another lookup.
func (g *getter) reset() {
	g.fn, g.merging, g.cover = nil, false, 0
	g.classify, g.readData = false, false
	g.db, g.key, g.err = nil, nil, nil
	g.ops.reset()
}

// newGetter returns a getter of its own, outside the pool.
func newGetter() *getter {
	g := &getter{}
	g.cb = g.onEntry
	g.rec = g.record
	return g
}

// Get looks key up at the latest sequence. When found, fn gets the value,
// valid only during the call.
func (db *DB) Get(key []byte, fn func(value []byte)) (bool, error) {
	return db.get(db.def, key, latestSeq, fn)
}

// latestSeq asks a read for the newest visible data.
const latestSeq = ^uint64(0)

// get looks key up in family f at snapshot (latestSeq: the newest).
func (db *DB) get(f *family, key []byte, snapshot uint64, fn func(value []byte)) (bool, error) {
	rs := f.reads.get()
	if rs == nil {
		return false, ErrClosed
	}
	defer rs.unrefReading(&db.purge)
	return db.getIn(rs, nil, key, snapshot, fn)
}

// getIn is get in read state rs, on which the caller holds a reference,
// with getter own when not nil (a RunReader's), else one from the pool.
func (db *DB) getIn(rs *readState, own *getter, key []byte, snapshot uint64, fn func(value []byte)) (bool, error) {
	seq := snapshot
	if seq == latestSeq {
		seq = db.visibleSeq.Load()
	}
	cover, err := rs.rangeDelCover(db, key, seq)
	if err != nil {
		return false, err
	}
	var v []byte
	var kind base.Kind
	var ok bool
	if cover == 0 {
		if db.memPoints {
			if !db.memGets.Load() {
				db.memGets.Store(true)
			}
			rs.mem.wantPoints()
		}
		v, kind, ok = rs.mem.get(key, seq)
		for i := len(rs.imm) - 1; !ok && i >= 0; i-- {
			v, kind, ok = rs.imm[i].get(key, seq)
		}
		db.countMemtableLookup(ok && kind != base.KindMerge)
		if ok && kind != base.KindMerge {
			return deliver(v, kind, fn)
		}
	}
	g := own
	if g == nil {
		g = getterPool.Get().(*getter)
		defer g.release()
	} else {
		defer g.reset()
	}
	g.fn, g.cover, g.db, g.key = fn, cover, db, key
	found := false
	if ok || cover != 0 {
		// An operand in a memtable, or a range tombstone that the
		// versions' sequences must be checked against: walk the
		// memtables' versions of key.
		found = collectFromMemTables(rs, key, seq, g)
		if cover != 0 {
			db.countMemtableLookup(found)
		}
	}
	if !found {
		found, err = db.getFromTables(rs.v, key, seq, g)
	}
	if err == nil {
		err = g.err
	}
	if err != nil {
		return false, err
	}
	if g.merging {
		merged, err := g.ops.fullMerge(db.merge, key)
		if err != nil {
			return false, err
		}
		if fn != nil {
			fn(merged)
		}
		return true, nil
	}
	return found && g.kind == base.KindSet, nil
}

// collectFromMemTables feeds g the versions of key at or below seq from the
// memtables, newest first, and reports whether it met a value or a
// tombstone (the end of what a merge needs).
//
// The iterators of some reps (vector, the hash reps: memtable.SnapshotIters)
// see only the entries added before they were made, so theirs are made
// anew for each lookup: a pooled one missed every later write (a merge
// operand, or a Put after a range tombstone, was not read).
func collectFromMemTables(rs *readState, key []byte, seq uint64, g *getter) bool {
	for i := len(rs.imm); i >= 0; i-- {
		m := rs.mem
		if i < len(rs.imm) {
			m = rs.imm[i]
		}
		var mi *memIter
		if m.poolIters {
			mi, _ = m.mergeIters.Get().(*memIter)
		}
		if mi == nil {
			mi = newMemIter(m.rep)
		}
		it := mi.it
		done := false
		for ok := it.Seek(key, seq); ok && compareKeys(it.Key(), key) == 0; ok = it.Next() {
			g.onEntry(it.Value(), it.Kind(), it.Seq())
			if done = g.kind != base.KindMerge; done {
				break
			}
		}
		// An iterator that holds something of its rep (memtable.Closer)
		// lets go of it before it is pooled or dropped.
		mi.Close()
		if m.poolIters {
			m.mergeIters.Put(mi)
		}
		if done {
			return true
		}
	}
	return false
}

func deliver(v []byte, kind base.Kind, fn func([]byte)) (bool, error) {
	if kind != base.KindSet {
		return false, nil
	}
	if fn != nil {
		fn(v)
	}
	return true, nil
}

// GetMergeOperands calls fn with what RocksDB's GetMergeOperands returns for
// key at the latest sequence: its merge operands oldest first, preceded by
// the value they apply to when there is one (a key holding just a value
// gives that value alone). found is false when key has neither. The slices
// are valid only during the call.
func (db *DB) GetMergeOperands(key []byte, fn func(operands [][]byte)) (bool, error) {
	rs := db.def.reads.get()
	if rs == nil {
		return false, ErrClosed
	}
	defer rs.unref()
	seq := db.visibleSeq.Load()
	cover, err := rs.rangeDelCover(db, key, seq)
	if err != nil {
		return false, err
	}
	g := getterPool.Get().(*getter)
	defer g.release()
	g.merging, g.cover, g.db, g.key = true, cover, db, key
	found := collectFromMemTables(rs, key, seq, g)
	if !found {
		if _, err = db.getFromTables(rs.v, key, seq, g); err == nil {
			err = g.err
		}
		if err != nil {
			return false, err
		}
	}
	operands := g.ops.oldestFirst()
	if g.ops.hasBase {
		operands = append(operands, nil)
		copy(operands[1:], operands)
		operands[0] = g.ops.base
	}
	if len(operands) == 0 {
		return false, nil
	}
	fn(operands)
	return true, nil
}

// getFromTables searches L0 newest first, then one table per level. A
// fault reading a mapped table is an error (fault.go); rtable tables are
// always mapped. The guard is on for every search: a search may open the
// DB's first mapped table and read it at once (it costs a few
// nanoseconds a Get).
func (db *DB) getFromTables(v *version, key []byte, seq uint64, g *getter) (_ bool, err error) {
	defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
	skipLevel := db.filterSkipLevel(v)
	var charge readCharge
	for i, f := range v.levels[0] {
		if compareKeys(key, f.smallest) < 0 || compareKeys(key, f.largest) > 0 || f.smallestSeq > seq {
			continue
		}
		skipFilter := skipLevel == 0 && i == len(v.levels[0])-1
		g.classify = db.readCompactions && charge.first == nil
		found, err := db.getFromTable(f, skipFilter, key, seq, g)
		if found || err != nil {
			db.countLevelHit(0, found)
			charge.pass()
			charge.settle(db)
			return found, err
		}
		charge.missed(f, g)
	}
	for level := 1; level < len(v.levels); level++ {
		files := v.levels[level]
		i := findFile(files, key)
		if i >= len(files) || compareKeys(key, files[i].smallest) < 0 {
			continue
		}
		g.classify = db.readCompactions && charge.first == nil
		found, err := db.getFromTable(files[i], skipLevel == level, key, seq, g)
		if found || err != nil {
			db.countLevelHit(level, found)
			charge.pass()
			charge.settle(db)
			return found, err
		}
		charge.missed(files[i], g)
	}
	charge.settle(db)
	return false, nil
}

// getFromTable looks key up in f, without consulting f's filter when
// skipFilter is set (filterskip.go).
func (db *DB) getFromTable(f *fileMeta, skipFilter bool, key []byte, seq uint64, g *getter) (bool, error) {
	if db.rows != nil {
		return db.getFromTableRows(f, skipFilter, key, seq, g)
	}
	if db.tables != nil {
		return db.getFromPinnedTable(f, skipFilter, key, seq, g)
	}
	r, err := db.tableReader(f)
	if err != nil {
		return false, err
	}
	return getInTable(r, skipFilter, key, seq, g)
}

// getInTable is getFromTable's lookup in f's reader r, past its filter
// when skipFilter is set.
func getInTable(r *openTable, skipFilter bool, key []byte, seq uint64, g *getter) (bool, error) {
	// Get consults the table's filter before any key or block.
	found, err := tableGet(r, skipFilter, key, seq, g.cb)
	// A merge operand: the older versions in this table come next.
	for found && err == nil && g.kind == base.KindMerge && g.seq > 0 {
		found, err = tableGet(r, skipFilter, key, g.seq-1, g.cb)
	}
	g.noteLookup(r, skipFilter, found, key)
	return found && g.kind != base.KindMerge, err
}
