// Package statistics is RocksDB's Statistics object for the engines that
// are not RocksDB: tickers (counters that only grow) and histograms under
// RocksDB 7.8.3's names, and the text of db_bench's STATISTICS block
// (String), in RocksDB's format and order.
//
// Contract:
//   - A nil *Statistics is valid and records nothing. Engines keep a nil
//     pointer when statistics are off (or their level records nothing), so
//     that a hot path pays one predictable nil check and nothing else.
//   - Recording is safe for concurrent use and does not serialize threads.
//     Every counter lives in shards; RocksDB keeps one shard per core, Go
//     exposes no core number, so a goroutine picks its shard from the
//     address of its stack, which no other running goroutine shares.
//     Tickers are atomic adds into the shard; histograms are guarded by
//     the shard's mutex, which only goroutines sharing a shard contend
//     for. Readers sum the shards; a read racing with recording sees each
//     counter either before or after a concurrent add.
//   - The level is RocksDB's StatsLevel (db_bench --stats_level): at
//     ExceptTickers (0) nothing is recorded, at ExceptHistogramOrTimers (1)
//     tickers only, from ExceptTimers (2) up histograms and operation
//     timers too (RocksDB's StopWatch times at ExceptTimers and above). The
//     finer levels add timers these engines do not keep.
//   - Counts are never reset: like RocksDB's, they cover the life of the
//     statistics object, not db_bench's resetstats. One object may count
//     several databases (Shared, as db_bench's dbstats does); the counts
//     an engine keeps itself come in per database (Source).
package statistics

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/godbbench/godbbench/internal/histogram"
)

// RocksDB's StatsLevel values.
const (
	ExceptTickers           = 0 // kDisableAll, kExceptTickers
	ExceptHistogramOrTimers = 1
	ExceptTimers            = 2
	ExceptDetailedTimers    = 3 // db_bench's default
	ExceptTimeForMutex      = 4
	All                     = 5
)

// Statistics holds the counters of one DB, or of several sharing them.
type Statistics struct {
	level      int
	histograms bool // level records histograms and timers
	shards     []shard
	shift      uint // the top 64-shift bits of a stack hash pick the shard
	// sources are the counts engines keep themselves, one Source per
	// database (source.go), added to the shards' sums.
	sources sourceList
}

// shard is one share of every counter, padded so that neighbouring
// shards' hot words do not share a cache line.
type shard struct {
	tickers [numTickers]atomic.Uint64
	mu      sync.Mutex
	hist    [numHistograms]histogram.Histogram
	_       [64]byte
}

// stackGrain is log2 of the smallest goroutine stack (2 KiB): stacks of
// distinct goroutines differ at least in the bits above it.
const stackGrain = 11

// New returns empty statistics recording at level (RocksDB's StatsLevel),
// with about four shards per GOMAXPROCS.
func New(level int) *Statistics {
	n := 1
	for n < 4*runtime.GOMAXPROCS(0) {
		n *= 2
	}
	s := &Statistics{
		level:      level,
		histograms: level >= ExceptTimers,
		shards:     make([]shard, n),
		shift:      uint(64 - bitLen(n-1)),
	}
	for i := range s.shards {
		for k := range s.shards[i].hist {
			s.shards[i].hist[k].Clear()
		}
	}
	return s
}

// bitLen is the number of bits needed for v.
func bitLen(v int) int {
	n := 0
	for ; v > 0; v >>= 1 {
		n++
	}
	return n
}

// Level is the StatsLevel s records at.
func (s *Statistics) Level() int { return s.level }

// Recorder returns s when its level records anything, else nil: what an
// engine hands its hot paths.
func (s *Statistics) Recorder() *Statistics {
	if s == nil || s.level <= ExceptTickers {
		return nil
	}
	return s
}

// Timed reports whether operations are timed into histograms; false for
// nil.
func (s *Statistics) Timed() bool { return s != nil && s.histograms }

// shard returns the calling goroutine's shard.
func (s *Statistics) shard() *shard {
	var probe byte
	// Fibonacci hashing: the product's top bits mix every bit of the
	// stack address above stackGrain.
	h := uint64(uintptr(unsafe.Pointer(&probe))>>stackGrain) * 0x9E3779B97F4A7C15
	return &s.shards[h>>s.shift]
}

// Add adds n to ticker t.
func (s *Statistics) Add(t Ticker, n uint64) {
	if s == nil {
		return
	}
	s.shard().tickers[t].Add(n)
}

// Record adds v to histogram k when the level records histograms.
func (s *Statistics) Record(k HistogramKind, v uint64) {
	if !s.Timed() {
		return
	}
	sh := s.shard()
	sh.mu.Lock()
	sh.hist[k].Add(v)
	sh.mu.Unlock()
}

// Start returns the start of an operation to be timed into a histogram by
// Since: the time now when the level times operations, else the zero time
// (no clock read).
func (s *Statistics) Start() time.Time {
	if !s.Timed() {
		return time.Time{}
	}
	return time.Now()
}

// Since records the microseconds since start (from Start) in histogram k;
// a zero start records nothing.
func (s *Statistics) Since(k HistogramKind, start time.Time) {
	if start.IsZero() {
		return
	}
	s.Record(k, uint64(time.Since(start).Microseconds()))
}

// Ticker returns the count of t, summed over the shards and the sources
// as they were last refreshed (Refresh).
func (s *Statistics) Ticker(t Ticker) uint64 {
	sum := s.sources.sum(t)
	for i := range s.shards {
		sum += s.shards[i].tickers[t].Load()
	}
	return sum
}

// Histogram returns histogram k, merged over the shards.
func (s *Statistics) Histogram(k HistogramKind) *histogram.Histogram {
	h := histogram.New()
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		h.Merge(&sh.hist[k])
		sh.mu.Unlock()
	}
	return h
}
