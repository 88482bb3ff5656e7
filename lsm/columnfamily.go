package lsm

import (
	"errors"
	"slices"
)

// ColumnFamily is a handle on one column family of an open DB (RocksDB's
// ColumnFamilyHandle): its reads see that family only, and a batch writes
// to it with Batch.PutCF and the like, using ID. Handles live as long as
// the DB.
type ColumnFamily struct {
	db *DB
	f  *family
}

// ID is the family's id, as batches name it.
func (c *ColumnFamily) ID() uint32 { return c.f.id }

// Name is the family's name.
func (c *ColumnFamily) Name() string { return c.f.name }

// Get looks key up in the family at the latest sequence. When found, fn
// gets the value, valid only during the call.
func (c *ColumnFamily) Get(key []byte, fn func(value []byte)) (bool, error) {
	return c.db.get(c.f, key, latestSeq, fn)
}

// NewIter returns an iterator over the family as of now (or o.Snapshot).
func (c *ColumnFamily) NewIter(o *IterOptions) (*Iterator, error) {
	return c.db.newIter(c.f, o)
}

// errFamilyExists is CreateColumnFamily's error for a name in use, in
// RocksDB's words.
var errFamilyExists = errors.New("Invalid argument: Column family already exists")

// ColumnFamily returns the open family named name ("default" included),
// or nil.
func (db *DB) ColumnFamily(name string) *ColumnFamily {
	db.mu.Lock()
	defer db.mu.Unlock()
	if f := db.familyByName(name); f != nil {
		return &ColumnFamily{db: db, f: f}
	}
	return nil
}

// CreateColumnFamily creates a family named name with the DB's options
// (RocksDB's DB::CreateColumnFamily): one MANIFEST edit naming it, with
// the next family id and the current WAL as its log number.
func (db *DB) CreateColumnFamily(name string) (*ColumnFamily, error) {
	if db.opts.ReadOnly {
		return nil, ErrReadOnly
	}
	db.createMu.Lock()
	defer db.createMu.Unlock()
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.mu.closing {
		// Close has taken its list of families to close.
		return nil, ErrClosed
	}
	f, err := db.createFamily(name)
	if err != nil {
		return nil, err
	}
	return &ColumnFamily{db: db, f: f}, nil
}

// createFamily records a new family and gives it an empty memtable
// (DB.mu held, and DB.createMu, or the DB not yet shared).
func (db *DB) createFamily(name string) (*family, error) {
	if db.familyByName(name) != nil {
		return nil, errFamilyExists
	}
	id := db.mu.vs.families.maxID + 1
	e := &versionEdit{familyEdit: familyEdit{family: id, addFamily: true, familyName: name, hasMaxFamily: true, maxFamily: id}}
	e.setLogNumber(db.mu.logNum)
	if err := db.mu.vs.logAndApply(e); err != nil {
		return nil, err
	}
	f := db.mu.vs.families.find(id)
	mem, err := db.newMemTable(db.mu.logNum)
	if err != nil {
		return nil, err
	}
	f.mem = mem
	f.publishReads()
	return f, nil
}

// familyByName returns the open family named name, or nil (DB.mu held).
func (db *DB) familyByName(name string) *family {
	if name == defaultFamilyName {
		return db.def
	}
	i := slices.IndexFunc(db.mu.vs.families.live, func(f *family) bool { return f.name == name })
	if i < 0 {
		return nil
	}
	return db.mu.vs.families.live[i]
}

// addFamily installs the family an edit just logged creates, with an
// empty version (DB.mu held).
func (vs *versionSet) addFamily(e *versionEdit) error {
	if err := vs.families.replay(e, vs.db.numLevels); err != nil {
		return err
	}
	f := vs.families.find(e.family)
	v := f.current
	f.current = nil
	vs.install(f, v)
	return nil
}
