package lsm

// family is the runtime state of one column family: its active and
// immutable memtables, its version (levels of tables), the log number
// below which its writes are all in tables, and where its next
// compaction of each level starts. What the families share (the WAL,
// the MANIFEST, sequence and file numbers, the lock and the background
// error) stays in DB.
//
// The DB keeps its default family in DB.def, so that the single-family
// paths reach it without a lookup.
type family struct {
	// id is the family's id in the MANIFEST and the WAL (0: default);
	// name is its name ("default" for id 0). Both are fixed once the
	// family exists.
	id   uint32
	name string

	// reads publishes the family's memtables and version to readers
	// without DB.mu (readstate.go).
	reads readStateHolder

	// The fields below are guarded by DB.mu.

	// mem is the memtable taking writes; nil before the WALs are
	// replayed. imm are the memtables switched out and not yet flushed,
	// oldest first.
	mem *memTable
	imm []*memTable
	// current is the family's installed version.
	current *version
	// logNumber: the family's writes in WALs numbered below it are all
	// in its tables (RocksDB's log number of a column family).
	logNumber uint64
	// flushTarget is the highest memtable id a caller waits to see
	// flushed, overriding min_write_buffer_number_to_merge.
	flushTarget uint64
	// compactPointer is, per level, where the next compaction of that
	// level starts with compaction_pri kRoundRobin (compaction_pri.go).
	compactPointer [][]byte
	// work is the family's cumulative flush and compaction statistics.
	work familyWork
}

// familyWork is what a family's flushes and compactions did since Open
// or the last ResetStats, the figures of its rows of RocksDB's
// compaction-stats table (guarded by DB.mu).
type familyWork struct {
	levels  []levelStats // compactions by output level, flushes in level 0
	flushes levelStats   // the flushes alone
}

// newFamilyWork returns empty statistics for numLevels levels.
func newFamilyWork(numLevels int) familyWork {
	return familyWork{levels: make([]levelStats, numLevels)}
}

// defaultFamilyName is the name of family 0, as in RocksDB.
const defaultFamilyName = "default"

// newFamily returns an empty family with numLevels compaction pointers.
func newFamily(id uint32, name string, numLevels int) *family {
	return &family{id: id, name: name, compactPointer: make([][]byte, numLevels), work: newFamilyWork(numLevels)}
}

// publishReads makes the family's memtables and version the ones new
// reads see (DB.mu held).
func (f *family) publishReads() {
	f.reads.set(f.mem, f.imm, f.current)
}

// familyByID returns the open family id, or nil (DB.mu held).
func (db *DB) familyByID(id uint32) *family {
	if id == 0 {
		return db.def
	}
	return db.mu.vs.families.find(id)
}

// allFamilies returns the open families, the default first (DB.mu held).
func (db *DB) allFamilies() []*family {
	return append([]*family{db.def}, db.mu.vs.families.live...)
}

// minLogNumber is the lowest log number of the open families: the WALs
// numbered below it hold no write that is not in a table (DB.mu held).
func (db *DB) minLogNumber() uint64 {
	n := db.def.logNumber
	for _, f := range db.mu.vs.families.live {
		n = min(n, f.logNumber)
	}
	return n
}
