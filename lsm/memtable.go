package lsm

import (
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/memtable"
)

// memTable is one memtable rep plus what the DB tracks about it.
type memTable struct {
	rep    memtable.Rep
	id     uint64 // increasing creation order
	logNum uint64 // WAL holding its logged writes (0: none)
	// Its writes' sequences lie in [firstSeq, lastSeq]: firstSeq is one
	// past the last sequence assigned when it was made, lastSeq the last
	// assigned when it became immutable (set then, under DB.mu).
	firstSeq, lastSeq uint64
	limit             uint64 // write_buffer_size
	// logical estimates the bytes inserted (batch bytes plus a per-entry
	// overhead); maintained by the commit leader under DB.mu, so inserts
	// pay no shared atomic for it.
	logical uint64
	// unlogged is set when a write skipped the WAL, so Close flushes it.
	unlogged atomic.Bool
	// refs counts the memtable's holders: its family while it is the mem or in
	// the imm (the reference newMemTable returns), and every readState that
	// lists it. At zero the rep's memory is released for reuse when the rep
	// supports it (memtable.Releaser: cspp hands its arena to the next
	// memtable), instead of waiting for the garbage collector.
	refs atomic.Int32
	// mergeIters keeps the rep's iterators (*memIter, closed) that Get
	// walks a key's merge operands with, so such reads allocate none in
	// steady state; only for reps whose iterators read the live structure
	// (poolIters: not memtable.SnapshotIters).
	mergeIters sync.Pool
	poolIters  bool
	// rangeDels are the memtable's range tombstones (rangedel_mem.go).
	rangeDels memRangeDels
	// bloom is the memtable's bloom filter under prefix (nil: none;
	// memtable_bloom.go).
	bloom  *memBloom
	prefix prefixExtractor
	// pointRep is the rep's entry references when the memtable may have a
	// point index, and points the index once made (memtable_points.go);
	// building is set when a Get asked for the index to be built.
	pointRep memtable.Pointed
	points   atomic.Pointer[memPoints]
	building atomic.Bool
}

func (m *memTable) ref() {
	// A memtable starts with the DB's reference, so a count that was 0
	// belongs to a memtable already released.
	if n := m.refs.Add(1); invariants.Enabled && n <= 1 {
		invariants.Violated("lsm: memtable %d referenced after its release", m.id)
	}
}

func (m *memTable) unref() {
	n := m.refs.Add(-1)
	if invariants.Enabled {
		checkUnref("memtable", m.id, n)
	}
	if n == 0 {
		if r, ok := m.rep.(memtable.Releaser); ok {
			r.Release()
		}
		if p := m.points.Load(); p != nil {
			p.release()
		}
	}
}

// get is the rep's Get, skipped when the bloom filter rules key out. An
// empty memtable's is not probed: the filter spans write_buffer_size ×
// memtable_prefix_bloom_size_ratio bytes, and the probe's cache and TLB
// misses cost more than searching nothing (BenchmarkPrefixGet: 3.9 vs
// 3.3 us of CPU per Get over tables).
func (m *memTable) get(key []byte, seq uint64) ([]byte, base.Kind, bool) {
	if m.rep.Len() == 0 && (m.bloom != nil || m.pointRep != nil) {
		return nil, 0, false
	}
	if m.bloom != nil && !m.bloom.mayContainKey(m.prefix, key) {
		return nil, 0, false
	}
	if p := m.points.Load(); p != nil {
		switch ref, answer := p.find(m.pointRep, key); answer {
		case pointsAbsent:
			return nil, 0, false
		case pointsFound:
			return m.pointRep.GetFrom(ref, key, seq)
		}
	}
	return m.rep.Get(key, seq)
}

func (m *memTable) empty() bool { return m.rep.Len() == 0 && m.rangeDels.count() == 0 }

// add inserts one batch record: a range tombstone into rangeDels, any
// other kind into the rep.
func (m *memTable) add(seq uint64, kind base.Kind, key, value []byte) error {
	if kind == base.KindRangeDelete {
		m.rangeDels.add(key, value, seq)
		return nil
	}
	// The filter's bits and the index's slot are set after the insert,
	// which overlaps the misses on their lines; still before the write's
	// sequence is published, so a reader that may see the write sees them.
	var bloomAdd pendingAdd
	if m.bloom != nil {
		bloomAdd = m.bloom.startAdd(m.prefix, key)
	}
	if m.pointRep != nil {
		// The index is loaded again after the insert: one made meanwhile
		// either sees the entry in its walk (buildPoints) or is seen here.
		p := m.points.Load()
		var h pointsHash
		if p != nil {
			h = p.startAdd(key)
		}
		ref, err := m.pointRep.AddRef(seq, kind, key, value)
		if q := m.points.Load(); err == nil && q != nil {
			if q != p {
				h = q.hashOf(key)
			}
			q.finishAdd(m.pointRep, h, key, ref, base.MakeTrailer(seq, kind))
		}
		bloomAdd.finish()
		return err
	}
	err := m.rep.Add(seq, kind, key, value)
	bloomAdd.finish()
	return err
}

// memEntryOverhead approximates a rep's per-entry cost beyond key and value
// (node, links, sequence) in the logical size: about 40 bytes for a
// skiplist node of average height 1.33 plus its 8-byte trailer.
const memEntryOverhead = 40

// memLogicalBackstop bounds a memtable by its logical size too, in
// multiples of write_buffer_size: a guard for a rep whose
// ApproximateMemoryUsage lags what it holds. No rep here stores an entry
// in under a quarter of its logical bytes (the most compact, 8-byte keys
// with no value in offset_skiplist, take 25 bytes against 63 logical).
const memLogicalBackstop = 4

// full reports whether the memtable reached write_buffer_size, counted as
// RocksDB counts it (MemTable::ShouldFlushNow): the memory the memtable
// holds, memoryUsage, not the bytes written into it. Reps allocate in
// chunks (2 MiB huge pages for a big skiplist, 64 KiB to 1 MiB for a small
// one), so a small buffer would look full after its first write: the
// memory counts only once the logical size is half the buffer.
//
// The logical size alone, key and value and batch bytes plus 40 an entry,
// is 171 bytes for db_bench's default entry (16-byte key, 100-byte value,
// one a batch), which the skiplist stores in about 137: switching on it
// filled a 64 MiB memtable to 392,000 entries and 54 MB, where RocksDB's
// holds 460,800 in its 64 MiB.
func (m *memTable) full() bool {
	if m.logical < m.limit/2 {
		return false
	}
	return m.logical >= memLogicalBackstop*m.limit || m.memoryUsage() >= m.limit
}

// memoryUsage is the bytes the memtable holds: its rep's, its key filter's
// and its range tombstones'. RocksDB's arena holds all three.
func (m *memTable) memoryUsage() uint64 {
	n := m.rep.ApproximateMemoryUsage() + m.rangeDels.memoryUsage()
	if m.bloom != nil {
		n += m.bloom.bytes()
	}
	if p := m.points.Load(); p != nil {
		n += p.bytes()
	}
	return n
}
