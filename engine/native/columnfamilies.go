package native

import (
	"fmt"
	"math"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/rocksfmt"
	"github.com/godbbench/godbbench/lsm"
	"github.com/godbbench/godbbench/options"
)

// family is one column family of a DB: an engine.DB whose reads and
// writes go to that family (lsm.ColumnFamily, and batches naming its id).
// It has no runs (engine.Runner): the driver makes single calls on it.
type family struct {
	db *DB
	cf *lsm.ColumnFamily
	// statsBaseline is where the interval of the family's next
	// rocksdb.stats or rocksdb.cfstats starts (guarded by
	// DB.statsBaseline.mu); the default family's is the DB's.
	statsBaseline rocksfmt.ColumnFamilyBaseline
}

var (
	_ engine.ColumnFamilies    = (*DB)(nil)
	_ engine.DB                = (*family)(nil)
	_ engine.ColumnFamilyBatch = (*batch)(nil)
)

// familyNames are the names of the families besides the default that a
// DB opened with o opens, as db_bench's OpenDb does: families 1 to
// HotColumnFamilies()-1.
func familyNames(o *options.Options) []string {
	var names []string
	for i := 1; i < o.HotColumnFamilies(); i++ {
		names = append(names, options.ColumnFamilyName(i))
	}
	return names
}

// openFamilies fills the slots of the families the DB opened with.
func (db *DB) openFamilies(o *options.Options) error {
	if o.NumColumnFamilies <= 1 {
		return nil
	}
	db.families = engine.NewFamilySlots[family](o.NumColumnFamilies)
	for i := range o.HotColumnFamilies() {
		cf := db.d.ColumnFamily(options.ColumnFamilyName(i))
		if cf == nil {
			return fmt.Errorf("native: column family %s did not open", options.ColumnFamilyName(i))
		}
		db.families.Set(i, &family{db: db, cf: cf})
	}
	return nil
}

// ColumnFamily implements engine.ColumnFamilies.
func (db *DB) ColumnFamily(i int) engine.DB {
	if f := db.families.Get(i); f != nil {
		return f
	}
	return nil
}

// CreateColumnFamily implements engine.ColumnFamilies with
// lsm.DB.CreateColumnFamily: a family takes the DB's options.
func (db *DB) CreateColumnFamily(i int) (engine.DB, error) {
	f, err := db.families.Create(i, func() (*family, error) {
		cf, err := db.d.CreateColumnFamily(options.ColumnFamilyName(i))
		if err != nil {
			return nil, err
		}
		return &family{db: db, cf: cf}, nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// familyID is the lsm id of family i; a family that does not exist gets
// an id no family has, so that the write naming it fails with RocksDB's
// "Invalid column family specified in write batch".
func (db *DB) familyID(i int) uint32 {
	if f := db.families.Get(i); f != nil {
		return f.cf.ID()
	}
	return math.MaxUint32
}

// PutCF implements engine.ColumnFamilyBatch.
func (b *batch) PutCF(i int, key, value []byte) { b.Batch.PutCF(b.db.familyID(i), key, value) }

// DeleteCF implements engine.ColumnFamilyBatch.
func (b *batch) DeleteCF(i int, key []byte) { b.Batch.DeleteCF(b.db.familyID(i), key) }

// familyWrite is the kind of a single write to a family.
type familyWrite uint8

const (
	familyPut familyWrite = iota
	familyDelete
	familyMerge
	familyDeleteRange
)

// writeOne commits one record of kind op to the family through a pooled
// batch (no allocation): a and b are the key and value, or the range's
// start and end.
func (f *family) writeOne(wo *engine.WriteOptions, op familyWrite, a, b []byte) error {
	bt := batchPool.Get().(*lsm.Batch)
	bt.Reset()
	id := f.cf.ID()
	switch op {
	case familyPut:
		bt.PutCF(id, a, b)
	case familyDelete:
		bt.DeleteCF(id, a)
	case familyMerge:
		bt.MergeCF(id, a, b)
	case familyDeleteRange:
		bt.DeleteRangeCF(id, a, b)
	}
	err := f.db.write(bt, wo)
	batchPool.Put(bt)
	return err
}

// Put implements engine.DB.
func (f *family) Put(key, value []byte, wo *engine.WriteOptions) error {
	return f.writeOne(wo, familyPut, key, value)
}

// Delete implements engine.DB.
func (f *family) Delete(key []byte, wo *engine.WriteOptions) error {
	return f.writeOne(wo, familyDelete, key, nil)
}

// SingleDelete implements engine.DB as a Delete, as DB.SingleDelete.
func (f *family) SingleDelete(key []byte, wo *engine.WriteOptions) error {
	return f.Delete(key, wo)
}

// Merge implements engine.DB; without a merge operator it fails as the
// DB's Merge does.
func (f *family) Merge(key, value []byte, wo *engine.WriteOptions) error {
	if !f.db.merges {
		return f.db.Merge(key, value, wo)
	}
	return f.writeOne(wo, familyMerge, key, value)
}

// DeleteRange implements engine.DB.
func (f *family) DeleteRange(start, end []byte, wo *engine.WriteOptions) error {
	return f.writeOne(wo, familyDeleteRange, start, end)
}

// NewBatch implements engine.DB: the DB's batch, whose plain entries go to
// the default family.
func (f *family) NewBatch() engine.Batch { return f.db.NewBatch() }

// Apply implements engine.DB as the DB's Apply.
func (f *family) Apply(b engine.Batch, wo *engine.WriteOptions) error { return f.db.Apply(b, wo) }

// Get implements engine.DB over the family, counted as the DB's Get is.
func (f *family) Get(key []byte, fn func(value []byte)) (bool, error) {
	if f.db.rec != nil {
		return engine.CountedGet(f.db.rec, f.cf, key, fn)
	}
	return f.cf.Get(key, fn)
}

// GetMergeOperands implements engine.DB for the default family only.
func (f *family) GetMergeOperands(key []byte, fn func(operand []byte)) (bool, error) {
	if f.cf.ID() == 0 {
		return f.db.GetMergeOperands(key, fn)
	}
	return false, fmt.Errorf("Not implemented: engine native lists merge operands of the default column family only")
}

// NewIter implements engine.DB over the family.
func (f *family) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	var it engine.Iterator
	if o != nil && o.Tailing {
		lo := f.db.iterOptions(o.ViewOptions())
		it = engine.NewTailingIter(func() (engine.Iterator, error) { return f.cf.NewIter(&lo) })
	} else {
		lo := f.db.iterOptions(o)
		li, err := f.cf.NewIter(&lo)
		if err != nil {
			return nil, err
		}
		it = li
	}
	if f.db.rec != nil {
		return engine.NewCountedIter(f.db.rec, it), nil
	}
	return it, nil
}

// Flush implements engine.DB: lsm flushes every family at once.
func (f *family) Flush() error { return f.db.Flush() }

// Compact implements engine.DB: a manual compaction of the default family;
// the others compact in the background only.
func (f *family) Compact(start, end []byte, targetLevel int) error {
	if f.cf.ID() == 0 {
		return f.db.Compact(start, end, targetLevel)
	}
	return fmt.Errorf("Not implemented: engine native compacts column families other than the default in the background only")
}

// WaitForCompactions implements engine.DB as the DB's.
func (f *family) WaitForCompactions() error { return f.db.WaitForCompactions() }

// Property implements engine.DB: the default family's properties are the
// DB's. Another family answers rocksdb.stats, rocksdb.cfstats and the
// properties of its memtables and levels from its own figures, and
// rocksdb.sstables not at all; the rest are the DB's, as RocksDB's
// DB-wide properties are whatever family is named.
func (f *family) Property(name string) (string, bool) {
	if f.cf.ID() == 0 {
		return f.db.Property(name)
	}
	switch name {
	case "rocksdb.stats", "rocksdb.cfstats":
		return f.db.familyStats(f.cf.Name(), f.cf.Metrics, &f.statsBaseline, name == "rocksdb.stats", false)
	case "rocksdb.sstables":
		return "", false
	}
	m, err := f.cf.Metrics()
	if err != nil {
		return "", false
	}
	if v, ok := metricProperty(name, &m); ok {
		return v, true
	}
	return f.db.Property(name)
}

// ResetStats implements engine.DB as the DB's.
func (f *family) ResetStats() error { return f.db.ResetStats() }

// Close implements engine.DB: a family lives until its DB closes.
func (f *family) Close() error { return nil }
