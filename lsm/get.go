package lsm

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/sst"
)

// tableReader returns the open reader of f, opening it on first use.
func (db *DB) tableReader(f *fileMeta) (*sst.Reader, error) {
	if r := f.reader.Load(); r != nil {
		return r, nil
	}
	f.openMu.Lock()
	defer f.openMu.Unlock()
	if db.opts.MmapRead {
		// sst.Open turns a fault reading the new mapping into an error.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	if r := f.reader.Load(); r != nil {
		return r, nil
	}
	name := tableName(db.dir, f.num)
	file, err := db.fs.OpenReadOnly(name)
	if err != nil {
		return nil, fmt.Errorf("lsm: open table: %w", err)
	}
	r, err := sst.Open(file, int64(f.size), sst.ReaderOptions{
		Cache:           db.cache,
		Mmap:            db.opts.MmapRead,
		VerifyChecksums: db.opts.VerifyChecksum,
		FileNum:         f.num,
		Name:            name,
	})
	if err != nil {
		return nil, fmt.Errorf("lsm: open table %s: %w", name, err)
	}
	f.reader.Store(r)
	return r, nil
}

// getter carries one Get through the table callbacks. Getters are pooled
// and their callback is a method value bound once, so a Get allocates
// nothing.
type getter struct {
	fn   func(value []byte)
	kind base.Kind
	cb   func(value []byte, kind base.Kind, seq uint64)
}

var getterPool = sync.Pool{New: func() any {
	g := &getter{}
	g.cb = g.onEntry
	return g
}}

func (g *getter) onEntry(value []byte, kind base.Kind, _ uint64) {
	g.kind = kind
	if kind == base.KindSet && g.fn != nil {
		g.fn(value)
	}
}

// Get looks key up at the latest sequence. When found, fn gets the value,
// valid only during the call.
func (db *DB) Get(key []byte, fn func(value []byte)) (bool, error) {
	return db.get(key, latestSeq, fn)
}

// latestSeq asks a read for the newest visible data.
const latestSeq = ^uint64(0)

// get looks key up at snapshot (latestSeq: the newest).
func (db *DB) get(key []byte, snapshot uint64, fn func(value []byte)) (bool, error) {
	rs := db.reads.get()
	if rs == nil {
		return false, ErrClosed
	}
	defer rs.unref()
	seq := snapshot
	if seq == latestSeq {
		seq = db.visibleSeq.Load()
	}
	if v, kind, ok := rs.mem.rep.Get(key, seq); ok {
		return deliver(v, kind, fn)
	}
	for i := len(rs.imm) - 1; i >= 0; i-- {
		if v, kind, ok := rs.imm[i].rep.Get(key, seq); ok {
			return deliver(v, kind, fn)
		}
	}
	g := getterPool.Get().(*getter)
	g.fn = fn
	found, err := db.getFromTables(rs.v, key, seq, g)
	kind := g.kind
	g.fn = nil
	getterPool.Put(g)
	if err != nil || !found {
		return false, err
	}
	return kind == base.KindSet, nil
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

// getFromTables searches L0 newest first, then one table per level. A
// fault reading a mapped table is an error (see catchFault).
func (db *DB) getFromTables(v *version, key []byte, seq uint64, g *getter) (_ bool, err error) {
	if db.opts.MmapRead {
		defer catchFault(debug.SetPanicOnFault(true), &err)
	}
	for _, f := range v.levels[0] {
		if compareKeys(key, f.smallest) < 0 || compareKeys(key, f.largest) > 0 || f.smallestSeq > seq {
			continue
		}
		if found, err := db.getFromTable(f, key, seq, g); found || err != nil {
			return found, err
		}
	}
	for level := 1; level < len(v.levels); level++ {
		files := v.levels[level]
		i := findFile(files, key)
		if i >= len(files) || compareKeys(key, files[i].smallest) < 0 {
			continue
		}
		if found, err := db.getFromTable(files[i], key, seq, g); found || err != nil {
			return found, err
		}
	}
	return false, nil
}

func (db *DB) getFromTable(f *fileMeta, key []byte, seq uint64, g *getter) (bool, error) {
	r, err := db.tableReader(f)
	if err != nil {
		return false, err
	}
	// Reader.Get consults the table's bloom filter before any block.
	return r.Get(key, seq, g.cb)
}
