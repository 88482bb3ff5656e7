package engine

import (
	"sync"

	"github.com/godbbench/godbbench/internal/statistics"
)

// This file counts the calls of an engine that keeps RocksDB statistics
// (package statistics) itself, as RocksDB's DBImpl and DBIter count them:
// every Get (rocksdb.number.keys.read, rocksdb.bytes.read and
// rocksdb.bytes.per.read for what it found, rocksdb.db.get.micros), every
// write's time (rocksdb.db.write.micros) and every iterator step (seeks,
// nexts, prevs, those that found a key, rocksdb.db.iter.bytes.read,
// rocksdb.db.seek.micros). Engines use these wrappers only while their
// statistics record something, so that the calls cost nothing otherwise.

// StatisticsProperty is the property whose value is the STATISTICS block
// (RocksDB's Statistics::ToString), on every engine with --statistics.
const StatisticsProperty = "rocksdb.options-statistics"

// PointGetter is the Get of an engine's database.
type PointGetter interface {
	Get(key []byte, fn func(value []byte)) (bool, error)
}

// valueMeter passes a Get's value on and remembers its length; meters are
// pooled and their callback bound once, so counting allocates nothing.
type valueMeter struct {
	fn   func(value []byte)
	n    int
	each func(value []byte)
}

func (m *valueMeter) call(v []byte) {
	m.n = len(v)
	if m.fn != nil {
		m.fn(v)
	}
}

var valueMeters = sync.Pool{New: func() any {
	m := &valueMeter{}
	m.each = m.call
	return m
}}

// CountedGet is db.Get(key, fn) counted in s.
func CountedGet(s *statistics.Statistics, db PointGetter, key []byte, fn func(value []byte)) (bool, error) {
	start := s.Start()
	m := valueMeters.Get().(*valueMeter)
	m.fn, m.n = fn, 0
	found, err := db.Get(key, m.each)
	n := uint64(m.n)
	m.fn = nil
	valueMeters.Put(m)
	s.Add(statistics.KeysRead, 1)
	if found && err == nil {
		s.Add(statistics.BytesRead, n)
		s.Record(statistics.BytesPerRead, n)
	}
	s.Since(statistics.DBGetMicros, start)
	return found, err
}

// CountedIter counts the steps of an Iterator in s. Its key bytes count as
// read when it lands on a key, its value bytes when Value is called (some
// engines load values only then).
type CountedIter struct {
	Iterator
	s *statistics.Statistics
}

// NewCountedIter wraps it, counting one iterator created.
func NewCountedIter(s *statistics.Statistics, it Iterator) *CountedIter {
	s.Add(statistics.IteratorsCreated, 1)
	return &CountedIter{Iterator: it, s: s}
}

// landed counts a positioning step of kind and, when valid, its found
// ticker and the key's bytes.
func (c *CountedIter) landed(kind, found statistics.Ticker, valid bool) bool {
	c.s.Add(kind, 1)
	if valid {
		c.s.Add(found, 1)
		c.s.Add(statistics.IterBytesRead, uint64(len(c.Iterator.Key())))
	}
	return valid
}

// First is a seek to the first key.
func (c *CountedIter) First() bool {
	return c.landed(statistics.DBSeek, statistics.DBSeekFound, c.Iterator.First())
}

// Last is a seek to the last key.
func (c *CountedIter) Last() bool {
	return c.landed(statistics.DBSeek, statistics.DBSeekFound, c.Iterator.Last())
}

// SeekGE is a timed seek.
func (c *CountedIter) SeekGE(key []byte) bool {
	start := c.s.Start()
	ok := c.landed(statistics.DBSeek, statistics.DBSeekFound, c.Iterator.SeekGE(key))
	c.s.Since(statistics.DBSeekMicros, start)
	return ok
}

// SeekLE is a timed seek (RocksDB's SeekForPrev).
func (c *CountedIter) SeekLE(key []byte) bool {
	start := c.s.Start()
	ok := c.landed(statistics.DBSeek, statistics.DBSeekFound, c.Iterator.SeekLE(key))
	c.s.Since(statistics.DBSeekMicros, start)
	return ok
}

// Next steps forward.
func (c *CountedIter) Next() bool {
	return c.landed(statistics.DBNext, statistics.DBNextFound, c.Iterator.Next())
}

// Prev steps back.
func (c *CountedIter) Prev() bool {
	return c.landed(statistics.DBPrev, statistics.DBPrevFound, c.Iterator.Prev())
}

// Value counts the value's bytes as read.
func (c *CountedIter) Value() ([]byte, error) {
	v, err := c.Iterator.Value()
	c.s.Add(statistics.IterBytesRead, uint64(len(v)))
	return v, err
}

// Close counts one iterator deleted.
func (c *CountedIter) Close() error {
	c.s.Add(statistics.IteratorsDeleted, 1)
	return c.Iterator.Close()
}
