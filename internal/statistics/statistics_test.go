package statistics

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestKeptNamesAreRocksDBs: every ticker and histogram kept has a name of
// RocksDB's block, once.
func TestKeptNamesAreRocksDBs(t *testing.T) {
	seen := map[string]bool{}
	for i, name := range tickerNames {
		if !slices.Contains(rocksdbTickerNames[:], name) || seen[name] {
			t.Errorf("ticker %d: %q is not a RocksDB ticker, or is kept twice", i, name)
		}
		seen[name] = true
	}
	for i, name := range histogramNames {
		if !slices.Contains(rocksdbHistogramNames[:], name) || seen[name] {
			t.Errorf("histogram %d: %q is not a RocksDB histogram, or is kept twice", i, name)
		}
		seen[name] = true
	}
}

// TestStringLists: the block has a line per RocksDB name, in order, with
// the counts recorded.
func TestStringLists(t *testing.T) {
	s := New(ExceptDetailedTimers)
	s.Add(KeysWritten, 3)
	s.Add(KeysWritten, 4)
	s.Record(DBGetMicros, 5)
	s.Record(DBGetMicros, 7)
	lines := strings.Split(strings.TrimSuffix(s.String(), "\n"), "\n")
	if want := len(rocksdbTickerNames) + len(rocksdbHistogramNames); len(lines) != want {
		t.Fatalf("%d lines, want %d", len(lines), want)
	}
	if lines[0] != "rocksdb.block.cache.miss COUNT : 0" {
		t.Errorf("first line %q", lines[0])
	}
	if !slices.Contains(lines, "rocksdb.number.keys.written COUNT : 7") {
		t.Errorf("no keys.written line of 7")
	}
	// 5 lies in RocksDB's bucket (4, 6], so P50 interpolates to 6.
	get := "rocksdb.db.get.micros P50 : 6.000000 P95 : 7.000000 P99 : 7.000000 P100 : 7.000000 COUNT : 2 SUM : 12"
	if lines[len(rocksdbTickerNames)] != get {
		t.Errorf("first histogram line %q, want %q", lines[len(rocksdbTickerNames)], get)
	}
	if last := lines[len(lines)-1]; last != "rocksdb.async.prefetch.abort.micros P50 : 0.000000 P95 : 0.000000 P99 : 0.000000 P100 : 0.000000 COUNT : 0 SUM : 0" {
		t.Errorf("last line %q", last)
	}
}

// TestSources: counts set whole add to the shards' counts, one Source per
// database, refreshed at each read; a closed Source keeps its last counts.
func TestSources(t *testing.T) {
	s := New(ExceptDetailedTimers)
	s.Add(WALBytes, 5)
	var first, second uint64 = 100, 1000
	a := s.AddSource(func(k *Source) { k.Set(WALBytes, first) })
	s.AddSource(func(k *Source) { k.Set(WALBytes, second) })
	s.Refresh()
	if got := s.Ticker(WALBytes); got != 1105 {
		t.Errorf("wal bytes %d, want 1105", got)
	}
	first = 200
	s.CloseSource(a)
	first = 7 // no longer read
	if !strings.Contains(s.String(), "rocksdb.wal.bytes COUNT : 1205\n") {
		t.Errorf("block after close:\n%.300s", s.String())
	}
}

// TestLevels: level 0 records nothing, level 1 tickers only, level 2 and
// up histograms too.
func TestLevels(t *testing.T) {
	if New(ExceptTickers).Recorder() != nil {
		t.Error("level 0 has a recorder")
	}
	var none *Statistics
	none.Add(KeysRead, 1) // a nil recorder is a no-op
	none.Record(DBGetMicros, 1)
	none.Since(DBGetMicros, none.Start())
	s := New(ExceptHistogramOrTimers)
	r := s.Recorder()
	r.Add(KeysRead, 2)
	r.Record(BytesPerRead, 10)
	r.Since(DBGetMicros, r.Start())
	if got := s.Ticker(KeysRead); got != 2 {
		t.Errorf("level 1: keys read %d, want 2", got)
	}
	if s.Histogram(BytesPerRead).Count() != 0 || s.Histogram(DBGetMicros).Count() != 0 {
		t.Error("level 1 recorded a histogram")
	}
	s = New(ExceptTimers)
	r = s.Recorder()
	r.Record(BytesPerRead, 10)
	r.Since(DBGetMicros, r.Start())
	if s.Histogram(BytesPerRead).Count() != 1 || s.Histogram(DBGetMicros).Count() != 1 {
		t.Error("level 2 did not record histograms and timers")
	}
}

// TestConcurrentCounts: counts from many goroutines add up (run with
// -race: the shards are shared).
func TestConcurrentCounts(t *testing.T) {
	s := New(All)
	const goroutines, each = 16, 1000
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				s.Add(BytesRead, 3)
				s.Record(BytesPerRead, uint64(i))
			}
		}()
	}
	for i := 0; i < 10; i++ {
		_ = s.String() // reads race with the adds
	}
	wg.Wait()
	if got := s.Ticker(BytesRead); got != 3*goroutines*each {
		t.Errorf("bytes read %d, want %d", got, 3*goroutines*each)
	}
	h := s.Histogram(BytesPerRead)
	if h.Count() != goroutines*each || h.Sum() != goroutines*each*(each-1)/2 || h.Max() != each-1 {
		t.Errorf("histogram count %d sum %d max %d", h.Count(), h.Sum(), h.Max())
	}
}

// TestRecordingAllocatesNothing: the hot-path calls allocate nothing.
func TestRecordingAllocatesNothing(t *testing.T) {
	s := New(All)
	if n := testing.AllocsPerRun(100, func() {
		s.Add(KeysRead, 1)
		s.Record(BytesPerRead, 100)
		s.Since(DBGetMicros, s.Start())
	}); n != 0 {
		t.Errorf("%v allocations per recording", n)
	}
}
