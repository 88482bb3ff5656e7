// Package badgerskl adapts badger's public lock-free skiplist
// (github.com/dgraph-io/badger/v4/skl) to memtable.Rep, as an external Go
// baseline for memtablerep_bench. It registers as "badger_skl";
// Config.MemCap sizes badger's fixed arena (default 1 GiB, allocated up
// front by badger; untouched pages cost no RAM).
//
// Mapping: an internal key is stored as badger's key-with-timestamp, the user
// key followed by 8 bytes big-endian of MaxUint64 - (seq<<8 | kind), so
// badger's CompareKeys gives user key ascending, sequence descending; the
// kind is also kept in the value's Meta byte (with bit 7 set). badger's arena aborts the
// process when it overflows, so Add reserves the worst-case node size
// against the capacity first and returns memtable.ErrFull instead.
// ApproximateMemoryUsage is badger's MemSize, the arena bytes used.
package badgerskl

import (
	"encoding/binary"
	"math"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4/skl"
	"github.com/dgraph-io/badger/v4/y"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// DefaultMemCap is the arena size when Config.MemCap is 0.
const DefaultMemCap = 1 << 30

// worstCaseOverhead bounds badger's per-entry arena use beyond key and value:
// a full-height node, the 8-byte timestamp, the value's meta bytes and a
// varint expiry, plus alignment.
const worstCaseOverhead = skl.MaxNodeSize + 8 + 2 + 10 + 8

// metaPresent is set in every stored Meta byte, so Get can tell a stored
// tombstone with an empty value from badger's zero "not found" answer.
const metaPresent = 0x80

func init() {
	memtable.Register([]string{"badger_skl"}, func(cfg memtable.Config) (memtable.Rep, error) {
		return New(cfg.MemCap), nil
	})
}

// Rep is a badger skiplist behind the memtable.Rep interface.
type Rep struct {
	s        *skl.Skiplist
	capacity int64
	reserved atomic.Int64
	count    atomic.Int64
}

// New returns an empty Rep with an arena of memCap bytes (0: DefaultMemCap).
func New(memCap uint64) *Rep {
	if memCap == 0 {
		memCap = DefaultMemCap
	}
	if memCap > math.MaxUint32 {
		memCap = math.MaxUint32 // badger's offsets are uint32
	}
	return &Rep{s: skl.NewSkiplist(int64(memCap)), capacity: int64(memCap)}
}

// withTrailer appends badger's timestamp encoding of trailer to key, into
// buf when it is large enough.
func withTrailer(buf []byte, key []byte, trailer base.Trailer) []byte {
	out := append(buf[:0], key...)
	ts := math.MaxUint64 - uint64(trailer)
	return append(out, byte(ts>>56), byte(ts>>48), byte(ts>>40), byte(ts>>32),
		byte(ts>>24), byte(ts>>16), byte(ts>>8), byte(ts))
}

// Add implements memtable.Rep.
func (r *Rep) Add(seq uint64, kind base.Kind, key, value []byte) error {
	need := int64(len(key) + len(value) + worstCaseOverhead)
	if r.reserved.Add(need) > r.capacity {
		r.reserved.Add(-need)
		return memtable.ErrFull
	}
	var buf [64]byte
	r.s.Put(withTrailer(buf[:], key, base.MakeTrailer(seq, kind)), y.ValueStruct{Meta: byte(kind) | metaPresent, Value: value})
	r.count.Add(1)
	return nil
}

// Get implements memtable.Rep.
func (r *Rep) Get(key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	var buf [64]byte
	v := r.s.Get(withTrailer(buf[:], key, base.SeekTrailer(snapshot)))
	if v.Meta&metaPresent == 0 {
		return nil, 0, false
	}
	return v.Value, base.Kind(v.Meta &^ metaPresent), true
}

// NewIter implements memtable.Rep.
func (r *Rep) NewIter() memtable.Iter { return &Iter{it: r.s.NewIterator()} }

// ApproximateMemoryUsage implements memtable.Rep.
func (r *Rep) ApproximateMemoryUsage() uint64 { return uint64(r.s.MemSize()) }

// Len implements memtable.Rep.
func (r *Rep) Len() int64 { return r.count.Load() }

// Iter adapts skl.Iterator.
type Iter struct {
	it  *skl.Iterator
	buf [64]byte
}

// First implements memtable.Iter.
func (i *Iter) First() bool { i.it.SeekToFirst(); return i.it.Valid() }

// Last implements memtable.Iter.
func (i *Iter) Last() bool { i.it.SeekToLast(); return i.it.Valid() }

// Seek implements memtable.Iter.
func (i *Iter) Seek(key []byte, seq uint64) bool {
	i.it.Seek(withTrailer(i.buf[:], key, base.SeekTrailer(seq)))
	return i.it.Valid()
}

// SeekForPrev implements memtable.Iter.
func (i *Iter) SeekForPrev(key []byte, seq uint64) bool {
	i.it.SeekForPrev(withTrailer(i.buf[:], key, base.SeekForPrevTrailer(seq)))
	return i.it.Valid()
}

// Next implements memtable.Iter.
func (i *Iter) Next() bool {
	if !i.it.Valid() {
		return false
	}
	i.it.Next()
	return i.it.Valid()
}

// Prev implements memtable.Iter.
func (i *Iter) Prev() bool {
	if !i.it.Valid() {
		return false
	}
	i.it.Prev()
	return i.it.Valid()
}

// Valid implements memtable.Iter.
func (i *Iter) Valid() bool { return i.it.Valid() }

// Key implements memtable.Iter.
func (i *Iter) Key() []byte { return y.ParseKey(i.it.Key()) }

// trailer decodes the last 8 bytes of badger's key (y.ParseTs returns 0
// for the empty user key, so it cannot be used).
func (i *Iter) trailer() base.Trailer {
	k := i.it.Key()
	return base.Trailer(math.MaxUint64 - binary.BigEndian.Uint64(k[len(k)-8:]))
}

// Seq implements memtable.Iter.
func (i *Iter) Seq() uint64 { return i.trailer().Seq() }

// Kind implements memtable.Iter.
func (i *Iter) Kind() base.Kind { return i.trailer().Kind() }

// Value implements memtable.Iter.
func (i *Iter) Value() []byte { return i.it.Value().Value }
