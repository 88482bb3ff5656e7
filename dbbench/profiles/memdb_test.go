package profiles

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/godbbench/godbbench/engine"
)

// memStore is the durable part of a memDB: a map of the data plus a sorted
// key list rebuilt lazily when an iterator is opened after writes (the
// workload never writes during scans, so rebuilding is rare). It is kept per
// path so that closing and reopening finds the data again.
type memStore struct {
	mu     sync.RWMutex
	data   map[string][]byte
	sorted []string // nil when stale
}

// snapshot returns the sorted key list, rebuilding it when stale.
func (s *memStore) snapshot() []string {
	s.mu.RLock()
	keys := s.sorted
	s.mu.RUnlock()
	if keys != nil {
		return keys
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sorted == nil {
		keys := make([]string, 0, len(s.data))
		for k := range s.data {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		s.sorted = keys
	}
	return s.sorted
}

// memRegistry maps a path to its store, standing in for the disk.
type memRegistry struct {
	mu     sync.Mutex
	stores map[string]*memStore
}

func newMemRegistry() *memRegistry { return &memRegistry{stores: map[string]*memStore{}} }

// open returns a DB for path; it also writes a marker file so that the
// storage size step has something to measure.
func (r *memRegistry) open(path string) (engine.DB, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(path, "MARKER"), []byte("mem"), 0o644); err != nil {
		return nil, err
	}
	s, ok := r.stores[path]
	if !ok {
		s = &memStore{data: map[string][]byte{}}
		r.stores[path] = s
	}
	return &memDB{s: s}, nil
}

// memDB is a sorted in-memory engine.DB for tests.
type memDB struct {
	s      *memStore
	closed bool
}

var errUnsupported = errors.New("memdb: not supported")

func (d *memDB) Put(key, value []byte, _ *engine.WriteOptions) error {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	if _, ok := d.s.data[string(key)]; !ok {
		d.s.sorted = nil
	}
	d.s.data[string(key)] = bytes.Clone(value)
	return nil
}

func (d *memDB) Delete(key []byte, _ *engine.WriteOptions) error {
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	if _, ok := d.s.data[string(key)]; ok {
		delete(d.s.data, string(key))
		d.s.sorted = nil
	}
	return nil
}

func (d *memDB) NewBatch() engine.Batch { return nil }
func (d *memDB) SingleDelete(key []byte, wo *engine.WriteOptions) error {
	return d.Delete(key, wo)
}
func (d *memDB) DeleteRange([]byte, []byte, *engine.WriteOptions) error {
	return errUnsupported
}
func (d *memDB) Merge([]byte, []byte, *engine.WriteOptions) error { return errUnsupported }
func (d *memDB) GetMergeOperands([]byte, func([]byte)) (bool, error) {
	return false, errUnsupported
}
func (d *memDB) Apply(engine.Batch, *engine.WriteOptions) error { return errUnsupported }

func (d *memDB) Get(key []byte, fn func([]byte)) (bool, error) {
	d.s.mu.RLock()
	defer d.s.mu.RUnlock()
	v, ok := d.s.data[string(key)]
	if ok {
		fn(v)
	}
	return ok, nil
}

func (d *memDB) NewIter(*engine.IterOptions) (engine.Iterator, error) {
	return &memIter{s: d.s, keys: d.s.snapshot()}, nil
}

func (d *memDB) Flush() error                      { return nil }
func (d *memDB) Compact([]byte, []byte, int) error { return nil }
func (d *memDB) WaitForCompactions() error         { return nil }
func (d *memDB) Property(string) (string, bool)    { return "", false }
func (d *memDB) ResetStats() error                 { return nil }
func (d *memDB) Close() error {
	if d.closed {
		return errors.New("memdb: closed twice")
	}
	d.closed = true
	return nil
}

// memIter walks the sorted key list taken when it was opened; values are
// read live, and keys deleted since are skipped.
type memIter struct {
	s    *memStore
	keys []string
	pos  int
	val  []byte
}

// settle moves forward (dir 1) or backward (dir -1) from pos to a key that
// still exists and loads its value.
func (it *memIter) settle(dir int) bool {
	it.s.mu.RLock()
	defer it.s.mu.RUnlock()
	for it.pos >= 0 && it.pos < len(it.keys) {
		if v, ok := it.s.data[it.keys[it.pos]]; ok {
			it.val = append(it.val[:0], v...)
			return true
		}
		it.pos += dir
	}
	return false
}

func (it *memIter) First() bool { it.pos = 0; return it.settle(1) }
func (it *memIter) Last() bool  { it.pos = len(it.keys) - 1; return it.settle(-1) }

func (it *memIter) SeekGE(key []byte) bool {
	it.pos, _ = slices.BinarySearch(it.keys, string(key))
	return it.settle(1)
}

func (it *memIter) SeekLE(key []byte) bool {
	i, found := slices.BinarySearch(it.keys, string(key))
	if !found {
		i--
	}
	it.pos = i
	return it.settle(-1)
}

func (it *memIter) Next() bool {
	if !it.Valid() {
		return false
	}
	it.pos++
	return it.settle(1)
}

func (it *memIter) Prev() bool {
	if !it.Valid() {
		return false
	}
	it.pos--
	return it.settle(-1)
}

func (it *memIter) Valid() bool            { return it.pos >= 0 && it.pos < len(it.keys) }
func (it *memIter) Key() []byte            { return []byte(it.keys[it.pos]) }
func (it *memIter) Value() ([]byte, error) { return it.val, nil }
func (it *memIter) Error() error           { return nil }
func (it *memIter) Close() error           { return nil }
