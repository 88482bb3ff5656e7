package statistics

import (
	"fmt"
	"strings"
)

// tickerByName and histogramByName map RocksDB's names to the counters
// kept; a name missing from them prints as zero.
var (
	tickerByName    = make(map[string]Ticker, numTickers)
	histogramByName = make(map[string]HistogramKind, numHistograms)
)

func init() {
	for t, name := range tickerNames {
		tickerByName[name] = Ticker(t)
	}
	for k, name := range histogramNames {
		histogramByName[name] = HistogramKind(k)
	}
}

// String is RocksDB's Statistics::ToString: one line per ticker,
// "NAME COUNT : N", then one per histogram,
// "NAME P50 : %f P95 : %f P99 : %f P100 : %f COUNT : N SUM : N", every
// name RocksDB 7.8.3 has in its order, zero for those not kept. The
// sources are refreshed first.
func (s *Statistics) String() string {
	s.Refresh()
	var b strings.Builder
	b.Grow(20000)
	for _, name := range rocksdbTickerNames {
		var n uint64
		if t, ok := tickerByName[name]; ok {
			n = s.Ticker(t)
		}
		fmt.Fprintf(&b, "%s COUNT : %d\n", name, n)
	}
	for _, name := range rocksdbHistogramNames {
		var p50, p95, p99, p100 float64
		var count, sum uint64
		if k, ok := histogramByName[name]; ok {
			h := s.Histogram(k)
			p50, p95, p99 = h.Median(), h.Percentile(95), h.Percentile(99)
			p100, count, sum = float64(h.Max()), h.Count(), h.Sum()
		}
		fmt.Fprintf(&b, "%s P50 : %f P95 : %f P99 : %f P100 : %f COUNT : %d SUM : %d\n",
			name, p50, p95, p99, p100, count, sum)
	}
	return b.String()
}
