package enginetest

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// tickerLine is a ticker's line of the STATISTICS block.
var tickerLine = regexp.MustCompile(`(?m)^(rocksdb\.[a-z0-9._-]+) COUNT : (\d+)$`)

// histogramLine is a histogram's line of the STATISTICS block.
var histogramLine = regexp.MustCompile(`(?m)^(rocksdb\.[a-z0-9._-]+) P50 : .* COUNT : (\d+) SUM : (\d+)$`)

// Tickers parses the tickers of a STATISTICS block.
func Tickers(block string) map[string]uint64 {
	m := map[string]uint64{}
	for _, s := range tickerLine.FindAllStringSubmatch(block, -1) {
		m[s[1]], _ = strconv.ParseUint(s[2], 10, 64)
	}
	return m
}

// HistogramCounts parses the histograms' counts of a STATISTICS block.
func HistogramCounts(block string) map[string]uint64 {
	m := map[string]uint64{}
	for _, s := range histogramLine.FindAllStringSubmatch(block, -1) {
		m[s[1]], _ = strconv.ParseUint(s[2], 10, 64)
	}
	return m
}

// RunStatistics checks the counts of a database opened with statistics at
// RocksDB's default level after a known workload: n keys written one Put
// each, n found and n missing Gets, and one scan of every key; every write
// and read is counted as RocksDB counts it. Then counting must add no
// allocation: a Get of a flushed key may allocate tableGetAllocs times (the
// engine's own cost, without statistics), a Put nothing.
func RunStatistics(t *testing.T, open func(dir string) engine.DB, tableGetAllocs float64) {
	db := open(t.TempDir())
	defer mustClose(t, db)
	const n, valueLen = 500, 50
	value := make([]byte, valueLen)
	for i := 0; i < n; i++ {
		if err := db.Put([]byte(fmt.Sprintf("key%06d", i)), value, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2*n; i++ {
		if _, err := db.Get([]byte(fmt.Sprintf("key%06d", i)), func([]byte) {}); err != nil {
			t.Fatal(err)
		}
	}
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for ok := it.First(); ok; ok = it.Next() {
		steps++
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	block, ok := db.Property(engine.StatisticsProperty)
	if !ok {
		t.Fatal("no STATISTICS block")
	}
	tickers, hists := Tickers(block), HistogramCounts(block)
	for name, want := range map[string]uint64{
		"rocksdb.number.keys.written":  n,
		"rocksdb.number.keys.read":     2 * n,
		"rocksdb.bytes.read":           n * valueLen,
		"rocksdb.number.db.seek":       1,
		"rocksdb.number.db.seek.found": 1,
		"rocksdb.number.db.next":       n,
		"rocksdb.number.db.next.found": n - 1,
		"rocksdb.num.iterator.created": 1,
		"rocksdb.num.iterator.deleted": 1,
		"rocksdb.db.iter.bytes.read":   n * 9,
	} {
		if got := tickers[name]; got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	if tickers["rocksdb.bytes.written"] < n*(9+valueLen) {
		t.Errorf("rocksdb.bytes.written = %d, below the keys' and values' %d bytes", tickers["rocksdb.bytes.written"], n*(9+valueLen))
	}
	if tickers["rocksdb.flush.write.bytes"] == 0 {
		t.Error("rocksdb.flush.write.bytes = 0 after a flush")
	}
	for name, want := range map[string]uint64{
		"rocksdb.db.get.micros":   2 * n,
		"rocksdb.db.write.micros": n,
		"rocksdb.bytes.per.read":  n,
	} {
		if got := hists[name]; got != want {
			t.Errorf("%s COUNT = %d, want %d", name, got, want)
		}
	}
	if steps != n {
		t.Errorf("the scan saw %d keys, want %d", steps, n)
	}

	if raceEnabled {
		return
	}
	key := []byte("key000007")
	fn := func([]byte) {}
	if a := testing.AllocsPerRun(200, func() { db.Get(key, fn) }); a > tableGetAllocs {
		t.Errorf("%v allocations per counted Get", a)
	}
	if a := testing.AllocsPerRun(200, func() { db.Put(key, value, nil) }); a != 0 {
		t.Errorf("%v allocations per counted Put", a)
	}
}
