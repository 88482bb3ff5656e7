//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>

// gdb_open_families opens the n column families named, each with opts (as
// db_bench opens its families with ColumnFamilyOptions(options)), creating
// those missing (opts has create_missing_column_families set), read-only
// when read_only is set. cfs receives n handles.
static char* gdb_open_families(const rocksdb_options_t* opts, const char* path, int read_only,
                               int n, const char* const* names, rocksdb_t** db,
                               rocksdb_column_family_handle_t** cfs) {
	char* err = NULL;
	const rocksdb_options_t** cf_opts = malloc(sizeof(*cf_opts) * (size_t)n);
	for (int i = 0; i < n; i++) cf_opts[i] = opts;
	if (read_only) {
		*db = rocksdb_open_for_read_only_column_families(opts, path, n, names, cf_opts, cfs, 0, &err);
	} else {
		*db = rocksdb_open_column_families(opts, path, n, names, cf_opts, cfs, &err);
	}
	free(cf_opts);
	return err;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// family is one column family of a DB: an engine.DB whose reads and writes
// go to that family through the DB's operations on a family handle
// (pointops.go), which the DB's own methods call with the default
// family's. It has no runs (engine.Runner): the driver makes single calls
// on it.
type family struct {
	d *DB
	h *C.rocksdb_column_family_handle_t
}

var (
	_ engine.ColumnFamilies    = (*DB)(nil)
	_ engine.DB                = (*family)(nil)
	_ engine.ColumnFamilyBatch = (*batch)(nil)
)

// openFamilies opens the database with o.HotColumnFamilies() families, as
// db_bench's OpenDb does when --num_column_families > 1.
func (d *DB) openFamilies(path *C.char, o *options.Options) error {
	if o.TransactionDB || o.OptimisticTransactionDB || o.UseSecondaryDB {
		return fmt.Errorf("Not implemented: engine rocksdb opens --num_column_families only as a plain or read-only database")
	}
	n := o.HotColumnFamilies()
	names := make([]*C.char, n)
	for i := range names {
		names[i] = cString(options.ColumnFamilyName(i))
	}
	defer func() {
		for _, p := range names {
			cFree(unsafe.Pointer(p))
		}
	}()
	handles := make([]*C.rocksdb_column_family_handle_t, n)
	if err := cError(C.gdb_open_families(d.cfg.opts, path, C.int(boolByte(o.ReadOnly)), C.int(n),
		(**C.char)(unsafe.Pointer(&names[0])), &d.db, &handles[0])); err != nil {
		return err
	}
	d.cf = handles[0]
	// Slot 0 is the default family, whose handle is the DB's cf.
	d.families = engine.NewFamilySlots[family](o.NumColumnFamilies)
	for i, h := range handles {
		d.families.Set(i, &family{d: d, h: h})
	}
	return nil
}

// ColumnFamily implements engine.ColumnFamilies.
func (d *DB) ColumnFamily(i int) engine.DB {
	if f := d.family(i); f != nil {
		return f
	}
	return nil
}

// family returns family i, nil when it does not exist.
func (d *DB) family(i int) *family { return d.families.Get(i) }

// CreateColumnFamily implements engine.ColumnFamilies with the C API's
// rocksdb_create_column_family and the DB's options.
func (d *DB) CreateColumnFamily(i int) (engine.DB, error) {
	if d.db == nil {
		return nil, errClosed
	}
	f, err := d.families.Create(i, func() (*family, error) {
		name := cString(options.ColumnFamilyName(i))
		defer cFree(unsafe.Pointer(name))
		var cerr *C.char
		h := C.rocksdb_create_column_family(d.db, d.cfg.opts, name, &cerr)
		if err := cError(cerr); err != nil {
			return nil, err
		}
		return &family{d: d, h: h}, nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// flushFamilies flushes every family that exists, one after another
// (db_bench flushes them in one DB::Flush call, which the C API lacks).
func (d *DB) flushFamilies() error {
	for i := range d.families.Len() {
		if f := d.families.Get(i); f != nil {
			if err := d.flush(f.h); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeFamilies releases the handles of the families other than the
// default one, before the DB closes.
func (d *DB) closeFamilies() {
	if d.families == nil {
		return
	}
	for i := 1; i < d.families.Len(); i++ {
		if f := d.families.Take(i); f != nil {
			C.rocksdb_column_family_handle_destroy(f.h)
		}
	}
}

// PutCF implements engine.ColumnFamilyBatch.
func (b *batch) PutCF(i int, key, value []byte) {
	C.rocksdb_writebatch_put_cf(b.b, b.d.family(i).h, bytesPtr(key), C.size_t(len(key)), bytesPtr(value), C.size_t(len(value)))
	b.n++
}

// DeleteCF implements engine.ColumnFamilyBatch.
func (b *batch) DeleteCF(i int, key []byte) {
	C.rocksdb_writebatch_delete_cf(b.b, b.d.family(i).h, bytesPtr(key), C.size_t(len(key)))
	b.n++
}

// Put implements engine.DB.
func (f *family) Put(key, value []byte, wo *engine.WriteOptions) error {
	return f.d.put(f.h, key, value, wo)
}

// Delete implements engine.DB.
func (f *family) Delete(key []byte, wo *engine.WriteOptions) error {
	return f.d.delete(f.h, key, wo)
}

// Merge implements engine.DB.
func (f *family) Merge(key, value []byte, wo *engine.WriteOptions) error {
	return f.d.merge(f.h, key, value, wo)
}

// SingleDelete implements engine.DB.
func (f *family) SingleDelete(key []byte, wo *engine.WriteOptions) error {
	return f.d.singleDelete(f.h, key, wo)
}

// DeleteRange implements engine.DB.
func (f *family) DeleteRange(start, end []byte, wo *engine.WriteOptions) error {
	return f.d.deleteRange(f.h, start, end, wo)
}

// NewBatch implements engine.DB: the DB's batch, whose plain entries go to
// the default family.
func (f *family) NewBatch() engine.Batch { return f.d.NewBatch() }

// Apply implements engine.DB as the DB's Apply.
func (f *family) Apply(b engine.Batch, wo *engine.WriteOptions) error { return f.d.Apply(b, wo) }

// Get implements engine.DB.
func (f *family) Get(key []byte, fn func(value []byte)) (bool, error) {
	return f.d.get(f.h, key, fn)
}

// GetMergeOperands implements engine.DB: the bridge lists the default
// family's operands only.
func (f *family) GetMergeOperands(key []byte, fn func(operand []byte)) (bool, error) {
	if f == f.d.family(0) {
		return f.d.GetMergeOperands(key, fn)
	}
	return false, fmt.Errorf("Not implemented: engine rocksdb lists merge operands of the default column family only")
}

// NewIter implements engine.DB over the family.
func (f *family) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	return f.d.newIter(o, f.h)
}

// Flush implements engine.DB: it flushes the family's memtables and waits.
func (f *family) Flush() error { return f.d.flush(f.h) }

// Compact implements engine.DB with the C API's rocksdb_compact_range_cf
// (RocksDB's default CompactRangeOptions; targetLevel is not applied).
func (f *family) Compact(start, end []byte, targetLevel int) error {
	if f.d.db == nil {
		return errClosed
	}
	C.rocksdb_compact_range_cf(f.d.db, f.h, bytesPtr(start), C.size_t(len(start)), bytesPtr(end), C.size_t(len(end)))
	return nil
}

// WaitForCompactions implements engine.DB as the DB's.
func (f *family) WaitForCompactions() error { return f.d.WaitForCompactions() }

// Property implements engine.DB: the family's value of a RocksDB property.
func (f *family) Property(name string) (string, bool) { return f.d.property(f.h, name) }

// ResetStats implements engine.DB as the DB's.
func (f *family) ResetStats() error { return f.d.ResetStats() }

// Close implements engine.DB: a family lives until its DB closes.
func (f *family) Close() error { return nil }
