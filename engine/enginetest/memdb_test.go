package enginetest

import (
	"bytes"
	"sort"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// memDB is an obviously correct engine (a locked map, iterators over a
// sorted snapshot) used to check the suites themselves. Each directory keeps
// its contents across Close and reopen, like a durable engine.
type memDB struct {
	mu     sync.Mutex
	kv     map[string]string
	closed bool
}

var (
	storesMu sync.Mutex
	stores   = map[string]map[string]string{}
)

func openMem(dir string) engine.DB {
	storesMu.Lock()
	defer storesMu.Unlock()
	kv, ok := stores[dir]
	if !ok {
		kv = map[string]string{}
		stores[dir] = kv
	}
	return &memDB{kv: kv}
}

func (m *memDB) Put(key, value []byte, _ *engine.WriteOptions) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.kv[string(key)] = string(value)
	return nil
}

func (m *memDB) Delete(key []byte, _ *engine.WriteOptions) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.kv, string(key))
	return nil
}

type memOp struct {
	key, value string
	del        bool
}

type memBatch struct{ ops []memOp }

func (b *memBatch) Put(key, value []byte) {
	b.ops = append(b.ops, memOp{string(key), string(value), false})
}
func (b *memBatch) Delete(key []byte) { b.ops = append(b.ops, memOp{key: string(key), del: true}) }
func (b *memBatch) Count() int        { return len(b.ops) }
func (b *memBatch) Reset()            { b.ops = b.ops[:0] }
func (b *memBatch) Close()            {}

func (m *memDB) NewBatch() engine.Batch { return &memBatch{} }

func (m *memDB) Apply(b engine.Batch, _ *engine.WriteOptions) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, op := range b.(*memBatch).ops {
		if op.del {
			delete(m.kv, op.key)
		} else {
			m.kv[op.key] = op.value
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
	t.Run("Concurrency", func(t *testing.T) { RunConcurrency(t, openMem) })
}
