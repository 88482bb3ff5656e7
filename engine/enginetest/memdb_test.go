package enginetest

import (
	"bytes"
	"sort"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/mergeop"
)

// memDB is an obviously correct engine (a locked map, iterators over a
// sorted snapshot) used to check the suites themselves. Each directory keeps
// its contents across Close and reopen, like a durable engine. A Merge is
// merged at once into the stored value, and the key's operands since its
// last Put or Delete (the Put's value first) are kept beside it.
type memDB struct {
	mu sync.Mutex
	*memStore
	op     mergeop.Operator
	closed bool
}

type memStore struct {
	kv       map[string]string
	operands map[string][]string
}

var (
	storesMu sync.Mutex
	stores   = map[string]*memStore{}
)

func openMem(dir string) engine.DB {
	storesMu.Lock()
	defer storesMu.Unlock()
	st, ok := stores[dir]
	if !ok {
		st = &memStore{kv: map[string]string{}, operands: map[string][]string{}}
		stores[dir] = st
	}
	return &memDB{memStore: st}
}

func openMemMerge(dir, op string) engine.DB {
	m := openMem(dir).(*memDB)
	var err error
	if m.op, err = mergeop.Lookup(op); err != nil {
		panic(err)
	}
	return m
}

func (m *memDB) Put(key, value []byte, wo *engine.WriteOptions) error {
	if syncWithoutWAL(wo) {
		return engine.ErrSyncWithoutWAL
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.put(string(key), string(value))
	return nil
}

func (m *memDB) put(key, value string) {
	m.kv[key] = value
	m.operands[key] = []string{value}
}

func (m *memDB) Delete(key []byte, wo *engine.WriteOptions) error {
	if syncWithoutWAL(wo) {
		return engine.ErrSyncWithoutWAL
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.delete(string(key))
	return nil
}

func (m *memDB) SingleDelete(key []byte, wo *engine.WriteOptions) error { return m.Delete(key, wo) }

func (m *memDB) DeleteRange(start, end []byte, wo *engine.WriteOptions) error {
	if syncWithoutWAL(wo) {
		return engine.ErrSyncWithoutWAL
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.deleteRange(string(start), string(end))
	return nil
}

func (m *memDB) deleteRange(start, end string) {
	for k := range m.kv {
		if k >= start && k < end {
			m.delete(k)
		}
	}
}

func (m *memDB) delete(key string) {
	delete(m.kv, key)
	delete(m.operands, key)
}

func (m *memDB) Merge(key, value []byte, wo *engine.WriteOptions) error {
	if syncWithoutWAL(wo) {
		return engine.ErrSyncWithoutWAL
	}
	if m.op == nil {
		return engine.ErrNoMergeOperator
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.merge(string(key), string(value))
}

func (m *memDB) merge(key, value string) error {
	old, ok := m.kv[key]
	v, err := m.op.FullMerge(nil, []byte(key), []byte(old), ok, [][]byte{[]byte(value)})
	if err != nil {
		return err
	}
	m.kv[key] = string(v)
	m.operands[key] = append(m.operands[key], value)
	return nil
}

func (m *memDB) GetMergeOperands(key []byte, fn func([]byte)) (bool, error) {
	m.mu.Lock()
	ops := m.operands[string(key)]
	m.mu.Unlock()
	for _, op := range ops {
		fn([]byte(op))
	}
	return len(ops) > 0, nil
}

type memOp struct {
	key, value string
	kind       byte // 'p' put, 'd' delete, 'm' merge, 'r' range delete [key, value)
}

type memBatch struct{ ops []memOp }

func (b *memBatch) Put(key, value []byte) {
	b.ops = append(b.ops, memOp{string(key), string(value), 'p'})
}
func (b *memBatch) Merge(key, value []byte) {
	b.ops = append(b.ops, memOp{string(key), string(value), 'm'})
}
func (b *memBatch) DeleteRange(start, end []byte) {
	b.ops = append(b.ops, memOp{string(start), string(end), 'r'})
}
func (b *memBatch) Delete(key []byte) { b.ops = append(b.ops, memOp{key: string(key), kind: 'd'}) }
func (b *memBatch) Count() int        { return len(b.ops) }
func (b *memBatch) Reset()            { b.ops = b.ops[:0] }
func (b *memBatch) Close()            {}

func (m *memDB) NewBatch() engine.Batch { return &memBatch{} }

func (m *memDB) Apply(b engine.Batch, wo *engine.WriteOptions) error {
	if syncWithoutWAL(wo) {
		return engine.ErrSyncWithoutWAL
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ops := b.(*memBatch).ops
	for _, op := range ops {
		if op.kind == 'm' && m.op == nil {
			return engine.ErrBatchMergeNoOperator
		}
	}
	for _, op := range ops {
		switch op.kind {
		case 'd':
			m.delete(op.key)
		case 'r':
			m.deleteRange(op.key, op.value)
		case 'm':
			if err := m.merge(op.key, op.value); err != nil {
				return err
			}
		default:
			m.put(op.key, op.value)
		}
	}
	return nil
}

func (m *memDB) Get(key []byte, fn func([]byte)) (bool, error) {
	m.mu.Lock()
	v, ok := m.kv[string(key)]
	m.mu.Unlock()
	if ok {
		fn([]byte(v))
	}
	return ok, nil
}

func (m *memDB) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	if o != nil && o.Tailing {
		v := o.ViewOptions()
		return engine.NewTailingIter(func() (engine.Iterator, error) { return m.NewIter(v) }), nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it := &memIter{pos: -1}
	for k, v := range m.kv {
		if o != nil && o.LowerBound != nil && k < string(o.LowerBound) {
			continue
		}
		if o != nil && o.UpperBound != nil && k >= string(o.UpperBound) {
			continue
		}
		it.keys = append(it.keys, k)
		it.vals = append(it.vals, v)
	}
	sort.Sort(it)
	return it, nil
}

func (m *memDB) Flush() error                                     { return nil }
func (m *memDB) Compact(start, end []byte, targetLevel int) error { return nil }
func (m *memDB) WaitForCompactions() error                        { return nil }
func (m *memDB) Property(name string) (string, bool)              { return "", false }
func (m *memDB) ResetStats() error                                { return nil }
func (m *memDB) Close() error                                     { m.closed = true; return nil }

type memIter struct {
	keys, vals []string
	pos        int
}

func (it *memIter) Len() int           { return len(it.keys) }
func (it *memIter) Less(i, j int) bool { return it.keys[i] < it.keys[j] }
func (it *memIter) Swap(i, j int) {
	it.keys[i], it.keys[j] = it.keys[j], it.keys[i]
	it.vals[i], it.vals[j] = it.vals[j], it.vals[i]
}

func (it *memIter) Valid() bool { return it.pos >= 0 && it.pos < len(it.keys) }
func (it *memIter) First() bool { it.pos = 0; return it.Valid() }
func (it *memIter) Last() bool  { it.pos = len(it.keys) - 1; return it.Valid() }
func (it *memIter) Next() bool  { it.pos++; return it.Valid() }
func (it *memIter) Prev() bool  { it.pos--; return it.Valid() }
func (it *memIter) SeekGE(key []byte) bool {
	it.pos = sort.SearchStrings(it.keys, string(key))
	return it.Valid()
}
func (it *memIter) SeekLE(key []byte) bool {
	it.pos = sort.Search(len(it.keys), func(i int) bool { return bytes.Compare([]byte(it.keys[i]), key) > 0 }) - 1
	return it.Valid()
}
func (it *memIter) Key() []byte            { return []byte(it.keys[it.pos]) }
func (it *memIter) Value() ([]byte, error) { return []byte(it.vals[it.pos]), nil }
func (it *memIter) Error() error           { return nil }
func (it *memIter) Close() error           { return nil }

// TestSuitesOnMemDB checks that the suites pass on a trivially correct
// engine, so a failure on a real engine points at the engine.
func TestSuitesOnMemDB(t *testing.T) {
	RunConformance(t, openMem)
	t.Run("Merge", func(t *testing.T) { RunMerge(t, openMemMerge, true) })
	t.Run("Concurrency", func(t *testing.T) { RunConcurrency(t, openMem) })
}

// syncWithoutWAL reports whether wo asks for a sync with the WAL off, which
// every engine refuses.
func syncWithoutWAL(wo *engine.WriteOptions) bool {
	return wo != nil && wo.Sync && wo.DisableWAL
}
