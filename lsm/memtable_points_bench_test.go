package lsm

import (
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/skiplist"
)

// BenchmarkMemtableGet is a Get of one memtable at db_bench's defaults
// (64 MiB write buffer, 16-byte keys, 100-byte values), filled in random
// key order to 450,000 entries, as fillrandom and overwrite leave it:
// through the default key filter (bloom: the whole-key memBloom and a
// search of the skip list) and through the point index (points), for keys
// the memtable holds (present) and keys it does not (absent).
func BenchmarkMemtableGet(b *testing.B) {
	const limit, entries = 64 << 20, 450000
	keyOf := func(key []byte, i uint64) []byte {
		binary.BigEndian.PutUint64(key, i*0x9E3779B97F4A7C15)
		binary.BigEndian.PutUint64(key[8:], i)
		return key
	}
	value := make([]byte, 100)
	for _, index := range []string{"bloom", "points", "both"} {
		rep := skiplist.NewSized(limit)
		m := &memTable{rep: rep, limit: limit}
		if index != "points" {
			m.bloom = newMemBloom(defaultMemKeyFilterBits(limit), true)
		}
		if index != "bloom" {
			p := newMemPoints(limit, rep)
			p.state.Store(pointsReady)
			m.points.Store(p)
			m.pointRep = rep
		}
		m.refs.Store(1)
		key := make([]byte, 16)
		for i := range uint64(entries) {
			if err := m.add(i+1, base.KindSet, keyOf(key, i), value); err != nil {
				b.Fatal(err)
			}
		}
		for _, present := range []bool{true, false} {
			name := index + "/absent"
			if present {
				name = index + "/present"
			}
			b.Run(name, func(b *testing.B) {
				i := uint64(0)
				for b.Loop() {
					i = (i + 7919) % entries
					k := i
					if !present {
						k += entries
					}
					if _, _, ok := m.get(keyOf(key, k), base.MaxSeq); ok != present {
						b.Fatalf("key %d found %v", k, ok)
					}
				}
			})
		}
		m.unref()
	}
}

// BenchmarkMemtableAdd is an add of db_bench's default entry, in random key
// order, into memtables of 450,000 entries at its defaults, under each key
// index of BenchmarkMemtableGet.
func BenchmarkMemtableAdd(b *testing.B) {
	const limit, entries = 64 << 20, 450000
	value := make([]byte, 100)
	key := make([]byte, 16)
	for _, index := range []string{"bloom", "points", "both"} {
		b.Run(index, func(b *testing.B) {
			var m *memTable
			i := uint64(0)
			for b.Loop() {
				if m == nil || i%entries == 0 {
					b.StopTimer()
					if m != nil {
						m.unref()
					}
					rep := skiplist.NewSized(limit)
					m = &memTable{rep: rep, limit: limit}
					if index != "points" {
						m.bloom = newMemBloom(defaultMemKeyFilterBits(limit), true)
					}
					if index != "bloom" {
						p := newMemPoints(limit, rep)
						p.state.Store(pointsReady)
						m.points.Store(p)
						m.pointRep = rep
					}
					m.refs.Store(1)
					b.StartTimer()
				}
				i++
				binary.BigEndian.PutUint64(key, i*0x9E3779B97F4A7C15)
				binary.BigEndian.PutUint64(key[8:], i)
				if err := m.add(i, base.KindSet, key, value); err != nil {
					b.Fatal(err)
				}
			}
			m.unref()
		})
	}
}
