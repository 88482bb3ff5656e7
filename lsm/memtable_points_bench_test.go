package lsm

import (
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/skiplist"
)

// The memtables of these benchmarks are at db_bench's defaults: a 64 MiB
// write buffer, 16-byte keys and 100-byte values, 450,000 entries (about
// what one holds) written in random key order, as fillrandom and
// overwrite leave it.
const benchMemLimit, benchMemEntries = 64 << 20, 450000

// benchMemKey is the key of entry i, its first 8 bytes scattered.
func benchMemKey(key []byte, i uint64) []byte {
	binary.BigEndian.PutUint64(key, i*0x9E3779B97F4A7C15)
	binary.BigEndian.PutUint64(key[8:], i)
	return key
}

// benchMemIndexes are the key indexes compared: the default whole-key
// filter then a search of the skip list (bloom), the point index alone
// (points), and the filter then the index (both).
var benchMemIndexes = []string{"bloom", "points", "both"}

// newBenchMemtable returns an empty skip-list memtable under index.
func newBenchMemtable(index string) *memTable {
	rep := skiplist.NewSized(benchMemLimit)
	m := &memTable{rep: rep, limit: benchMemLimit}
	if index != "points" {
		m.bloom = newMemBloom(defaultMemKeyFilterBits(benchMemLimit), true)
	}
	if index != "bloom" {
		m.pointRep = rep
		m.attachPoints(newMemPoints(benchMemLimit, rep))
	}
	m.refs.Store(1)
	return m
}

// BenchmarkMemtableGet is a Get of one full memtable, under each index of
// benchMemIndexes, for keys the memtable holds (present) and keys it does
// not (absent).
func BenchmarkMemtableGet(b *testing.B) {
	value := make([]byte, 100)
	key := make([]byte, 16)
	for _, index := range benchMemIndexes {
		m := newBenchMemtable(index)
		for i := range uint64(benchMemEntries) {
			if err := m.add(i+1, base.KindSet, benchMemKey(key, i), value); err != nil {
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
					i = (i + 7919) % benchMemEntries
					k := i
					if !present {
						k += benchMemEntries
					}
					if _, _, ok := m.get(benchMemKey(key, k), base.MaxSeq); ok != present {
						b.Fatalf("key %d found %v", k, ok)
					}
				}
			})
		}
		m.unref()
	}
}

// BenchmarkMemtableAdd is an add into such memtables, a fresh one every
// benchMemEntries adds, under each index of benchMemIndexes.
func BenchmarkMemtableAdd(b *testing.B) {
	value := make([]byte, 100)
	key := make([]byte, 16)
	for _, index := range benchMemIndexes {
		b.Run(index, func(b *testing.B) {
			var m *memTable
			i := uint64(0)
			for b.Loop() {
				if m == nil || i%benchMemEntries == 0 {
					b.StopTimer()
					if m != nil {
						m.unref()
					}
					m = newBenchMemtable(index)
					b.StartTimer()
				}
				i++
				if err := m.add(i, base.KindSet, benchMemKey(key, i), value); err != nil {
					b.Fatal(err)
				}
			}
			m.unref()
		})
	}
}
