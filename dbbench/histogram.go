package dbbench

import "github.com/godbbench/godbbench/internal/histogram"

// Histogram is RocksDB's HistogramImpl (package histogram), the per-thread
// latency histogram of --histogram.
type Histogram = histogram.Histogram

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram { return histogram.New() }
