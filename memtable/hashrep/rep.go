package hashrep

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/internal/sortedrun"
)

// The factories' defaults (HashSkipListRepFactory, HashLinkListRepFactory).
const (
	DefaultSkipListBuckets   = 1000000
	DefaultLinkListBuckets   = 50000
	DefaultSkipListHeight    = 4
	DefaultSkipListBranching = 4
	// DefaultListEntries is HashLinkListRepFactory's threshold_use_skiplist:
	// a bucket of more entries stops being a plain list.
	DefaultListEntries = 256
	// linkListSkipHeight and linkListSkipBranching shape the skiplist a
	// hash_linkedlist bucket grows into (RocksDB's default skiplist).
	linkListSkipHeight    = 12
	linkListSkipBranching = 4
	// maxHeight bounds Options.Height.
	maxHeight = 32
)

// Chunk lengths of the shared allocators, in elements.
const (
	nodeChunk   = 4096
	linkChunk   = 16384
	bucketChunk = 1024
	byteChunk   = 1 << 20
)

func init() {
	memtable.Register([]string{"prefix_hash", "HashSkipListRepFactory"}, func(cfg memtable.Config) (memtable.Rep, error) {
		return New(Options{
			PrefixSize: cfg.PrefixSize, Buckets: orDefault(cfg.Param, DefaultSkipListBuckets),
			Height: orDefault(cfg.SkipListHeight, DefaultSkipListHeight), Branching: orDefault(cfg.SkipListBranching, DefaultSkipListBranching),
		})
	})
	memtable.Register([]string{"hash_linkedlist", "HashLinkListRepFactory"}, func(cfg memtable.Config) (memtable.Rep, error) {
		return New(Options{PrefixSize: cfg.PrefixSize, Buckets: orDefault(cfg.Param, DefaultLinkListBuckets),
			Height: linkListSkipHeight, Branching: linkListSkipBranching, ListEntries: orDefault(cfg.ListEntries, DefaultListEntries)})
	})
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Options shape a Rep.
type Options struct {
	PrefixSize int // bytes of a key that pick its bucket; must be > 0
	Buckets    int // number of buckets
	Height     int // a bucket skiplist's maximum height; 1 makes it a linked list
	Branching  int // 1 in Branching nodes of a level reaches the next one
	// ListEntries is how many entries a bucket takes as a plain sorted
	// list (height 1 each) before its later nodes get skiplist heights;
	// 0 for a skiplist from the first entry.
	ListEntries int
}

// Rep is a prefix-hashed memtable.
type Rep struct {
	prefixSize int
	height     int
	listCount  int64
	branching  uint32
	seed       maphash.Seed
	buckets    []atomic.Pointer[bucket]

	nodes sortedrun.Chunks[node]
	links sortedrun.Chunks[atomic.Pointer[node]]
	heads sortedrun.Chunks[bucket]
	bytes sortedrun.Chunks[byte]

	count  atomic.Int64
	sorted sortedrun.Cache
}

// New returns an empty Rep.
func New(o Options) (*Rep, error) {
	if o.PrefixSize <= 0 {
		return nil, fmt.Errorf("Invalid argument: hash memtables need a prefix extractor: prefix_size must be > 0")
	}
	if o.Buckets <= 0 || o.Height < 1 || o.Height > maxHeight || o.Branching < 1 {
		return nil, fmt.Errorf("Invalid argument: hash memtable: bucket count %d, height %d (1 to %d), branching factor %d (>= 1)",
			o.Buckets, o.Height, maxHeight, o.Branching)
	}
	r := &Rep{
		prefixSize: o.PrefixSize,
		height:     o.Height,
		listCount:  int64(max(o.ListEntries, 0)),
		branching:  uint32(o.Branching),
		seed:       maphash.MakeSeed(),
		buckets:    make([]atomic.Pointer[bucket], o.Buckets),
	}
	r.nodes.ChunkLen = nodeChunk
	r.links.ChunkLen = linkChunk
	r.heads.ChunkLen = bucketChunk
	r.bytes.ChunkLen = byteChunk
	return r, nil
}

// bucketOf returns the slot of key's bucket.
func (r *Rep) bucketOf(key []byte) *atomic.Pointer[bucket] {
	p := key
	if len(p) > r.prefixSize {
		p = p[:r.prefixSize]
	}
	return &r.buckets[maphash.Bytes(r.seed, p)%uint64(len(r.buckets))]
}

// Add inserts (key, seq, kind) -> value into its prefix's bucket.
func (r *Rep) Add(seq uint64, kind base.Kind, key, value []byte) error {
	slot := r.bucketOf(key)
	b := slot.Load()
	if b == nil {
		nb := &r.heads.Alloc(1)[0]
		nb.head.next = r.links.Alloc(r.height)
		nb.height.Store(1)
		if slot.CompareAndSwap(nil, nb) {
			b = nb
		} else {
			b = slot.Load()
		}
	}
	x := &r.nodes.Alloc(1)[0]
	x.Entry = sortedrun.NewEntry(&r.bytes, seq, kind, key, value)
	height := 1
	if b.count.Add(1) > r.listCount {
		height = r.randomHeight()
	}
	x.next = r.links.Alloc(height)
	b.insert(x)
	r.count.Add(1)
	return nil
}

// Get finds the newest version of key with sequence <= snapshot in key's
// bucket.
func (r *Rep) Get(key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	b := r.bucketOf(key).Load()
	if b == nil {
		return nil, 0, false
	}
	t := sortedrun.NewTarget(key, base.SeekTrailer(snapshot))
	n := b.seek(&t)
	if n == nil || !bytes.Equal(n.Key, key) {
		return nil, 0, false
	}
	return n.Value, n.Trailer.Kind(), true
}

// NewIter returns an iterator over all entries in total order.
func (r *Rep) NewIter() memtable.Iter {
	return sortedrun.NewIter(r.sorted.Get(r.count.Load(), r.collect))
}

// SnapshotIters marks the rep's iterators as seeing only the entries added
// before NewIter (memtable.SnapshotIters).
func (*Rep) SnapshotIters() {}

// collect copies every bucket's entries into one run and sorts it.
func (r *Rep) collect(sortedrun.Run) sortedrun.Run {
	all := make([]sortedrun.Entry, 0, r.count.Load())
	for i := range r.buckets {
		b := r.buckets[i].Load()
		if b == nil {
			continue
		}
		for n := b.head.next[0].Load(); n != nil; n = n.next[0].Load() {
			all = append(all, n.Entry)
		}
	}
	return sortedrun.Sort(all)
}

// ApproximateMemoryUsage counts the bucket array and every chunk.
func (r *Rep) ApproximateMemoryUsage() uint64 {
	return uint64(len(r.buckets))*8 + r.nodes.Bytes() + r.links.Bytes() + r.heads.Bytes() + r.bytes.Bytes() +
		uint64(len(r.sorted.Peek()))*sortedrun.EntrySize
}

// Len is the number of entries added.
func (r *Rep) Len() int64 { return r.count.Load() }
