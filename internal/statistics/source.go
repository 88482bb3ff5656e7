package statistics

import (
	"sync"
	"sync/atomic"
)

// Source is one database's share of the counts its engine keeps itself
// rather than adds as they happen (Pebble's metrics: block cache hits,
// compaction bytes): cumulative counts, set whole when the statistics are
// read. Several databases counting in one Statistics (db_bench's shared
// dbstats) each have their Source, and the statistics sum them; a closed
// database's Source keeps its last counts, as RocksDB's statistics keep
// what a deleted DB counted.
type Source struct {
	tickers [numTickers]atomic.Uint64
	// refresh sets the counts from the engine's metrics; nil once the
	// database closed.
	refresh func(*Source)
}

// sourceList is the Sources of a Statistics.
type sourceList struct {
	mu   sync.Mutex
	list []*Source
}

// Set sets the count of t to n.
func (k *Source) Set(t Ticker, n uint64) { k.tickers[t].Store(n) }

// AddSource adds a Source whose counts refresh sets whenever the
// statistics are read (String, Refresh); nil s returns nil.
func (s *Statistics) AddSource(refresh func(*Source)) *Source {
	if s == nil {
		return nil
	}
	k := &Source{refresh: refresh}
	s.sources.mu.Lock()
	s.sources.list = append(s.sources.list, k)
	s.sources.mu.Unlock()
	return k
}

// CloseSource refreshes k one last time and keeps its counts from then
// on: what its database's engine reports before it closes. A nil k does
// nothing.
func (s *Statistics) CloseSource(k *Source) {
	if k == nil {
		return
	}
	s.sources.mu.Lock()
	defer s.sources.mu.Unlock()
	if k.refresh != nil {
		k.refresh(k)
		k.refresh = nil
	}
}

// Refresh sets every open Source's counts from its engine.
func (s *Statistics) Refresh() {
	if s == nil {
		return
	}
	s.sources.mu.Lock()
	defer s.sources.mu.Unlock()
	for _, k := range s.sources.list {
		if k.refresh != nil {
			k.refresh(k)
		}
	}
}

// sum is the count of t over every Source.
func (l *sourceList) sum(t Ticker) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var n uint64
	for _, k := range l.list {
		n += k.tickers[t].Load()
	}
	return n
}
