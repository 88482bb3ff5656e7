// Package histogram is RocksDB's HistogramImpl: latencies (or sizes) counted
// in RocksDB's 109 buckets, with its percentile interpolation and its text
// form. db_bench's per-operation histograms and the engines' statistics
// (internal/statistics) share it, so that both print what RocksDB prints.
//
// Contract: a Histogram is plain data, not safe for concurrent use; callers
// that share one guard it themselves.
package histogram

import (
	"fmt"
	"math"
	"strings"
)

// Histogram is RocksDB's HistogramImpl: 109 buckets whose limits are 1, 2 and
// then successive powers of 1.5 truncated to two leading digits (three for
// 100..109), with the count, sum, sum of squares, min and max kept exactly.
// Its text form (ToString) and percentile interpolation match RocksDB's
// byte for byte, because tools/benchmark.sh parses them.
//
// Add is a binary search over 109 limits plus four updates: about 10 ns.
type Histogram struct {
	min, max   uint64
	num        uint64
	sum        uint64
	sumSquares float64
	buckets    [numBuckets]uint64
}

const numBuckets = 109

var bucketLimits = buildBucketLimits()

func buildBucketLimits() [numBuckets]uint64 {
	var limits [numBuckets]uint64
	limits[0], limits[1] = 1, 2
	n := 2
	bucket := 2.0
	for bucket < float64(math.MaxUint64) && n < numBuckets {
		bucket *= 1.5
		if bucket >= float64(math.MaxUint64) {
			break
		}
		v := uint64(bucket)
		pow := uint64(1)
		for v/10 > 10 {
			v /= 10
			pow *= 10
		}
		limits[n] = v * pow
		n++
	}
	return limits
}

// New returns an empty histogram.
func New() *Histogram {
	h := &Histogram{}
	h.Clear()
	return h
}

// Clear empties the histogram.
func (h *Histogram) Clear() {
	*h = Histogram{min: bucketLimits[numBuckets-1]}
}

func bucketIndex(v uint64) int {
	lo, hi := 0, numBuckets-1
	for lo < hi {
		mid := (lo + hi) / 2
		if bucketLimits[mid] >= v {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// smallBuckets is bucketIndex of the values under its length, which are
// most of what db_bench records (latencies of scans and cached reads in
// whole microseconds): one load instead of a seven-step search.
var smallBuckets = buildSmallBuckets()

func buildSmallBuckets() (t [128]uint8) {
	for v := range t {
		t[v] = uint8(bucketIndex(uint64(v)))
	}
	return t
}

// Add records one value.
func (h *Histogram) Add(v uint64) {
	if v < uint64(len(smallBuckets)) {
		h.buckets[smallBuckets[v]]++
	} else {
		h.buckets[bucketIndex(v)]++
	}
	if v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.num++
	h.sum += v
	h.sumSquares += float64(v) * float64(v)
}

// Merge adds other into h.
func (h *Histogram) Merge(o *Histogram) {
	if o.min < h.min {
		h.min = o.min
	}
	if o.max > h.max {
		h.max = o.max
	}
	h.num += o.num
	h.sum += o.sum
	h.sumSquares += o.sumSquares
	for i := range h.buckets {
		h.buckets[i] += o.buckets[i]
	}
}

// Count is the number of values recorded.
func (h *Histogram) Count() uint64 { return h.num }

// Sum is the total of the values recorded.
func (h *Histogram) Sum() uint64 { return h.sum }

// Min is the smallest value, 0 when empty.
func (h *Histogram) Min() uint64 {
	if h.num == 0 {
		return 0
	}
	return h.min
}

// Max is the largest value, 0 when empty.
func (h *Histogram) Max() uint64 {
	if h.num == 0 {
		return 0
	}
	return h.max
}

// Average is sum / count.
func (h *Histogram) Average() float64 {
	if h.num == 0 {
		return 0
	}
	return float64(h.sum) / float64(h.num)
}

// StandardDeviation is the population standard deviation.
func (h *Histogram) StandardDeviation() float64 {
	if h.num == 0 {
		return 0
	}
	n := float64(h.num)
	s := float64(h.sum)
	v := (h.sumSquares*n - s*s) / (n * n)
	if v < 0 {
		v = 0
	}
	return math.Sqrt(v)
}

// Percentile interpolates within the bucket holding the p-th percentile.
func (h *Histogram) Percentile(p float64) float64 {
	threshold := float64(h.num) * (p / 100.0)
	var cum uint64
	for b := 0; b < numBuckets; b++ {
		bc := h.buckets[b]
		cum += bc
		if float64(cum) >= threshold {
			var left uint64
			if b > 0 {
				left = bucketLimits[b-1]
			}
			right := bucketLimits[b]
			pos := 0.0
			if bc != 0 {
				pos = (threshold - float64(cum-bc)) / float64(bc)
			}
			r := float64(left) + float64(right-left)*pos
			if r < float64(h.Min()) {
				r = float64(h.Min())
			}
			if r > float64(h.Max()) {
				r = float64(h.Max())
			}
			return r
		}
	}
	return float64(h.Max())
}

// Median is the 50th percentile.
func (h *Histogram) Median() float64 { return h.Percentile(50) }

// String renders the histogram exactly as RocksDB's HistogramImpl::ToString.
func (h *Histogram) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Count: %d Average: %.4f  StdDev: %.2f\n", h.num, h.Average(), h.StandardDeviation())
	fmt.Fprintf(&b, "Min: %d  Median: %.4f  Max: %d\n", h.Min(), h.Median(), h.Max())
	fmt.Fprintf(&b, "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f P99.99: %.2f\n",
		h.Percentile(50), h.Percentile(75), h.Percentile(99), h.Percentile(99.9), h.Percentile(99.99))
	b.WriteString("------------------------------------------------------\n")
	if h.num == 0 {
		return b.String()
	}
	mult := 100.0 / float64(h.num)
	var cum uint64
	for i := 0; i < numBuckets; i++ {
		if h.buckets[i] == 0 {
			continue
		}
		cum += h.buckets[i]
		open := byte('(')
		var left uint64
		if i == 0 {
			open = '['
		} else {
			left = bucketLimits[i-1]
		}
		fmt.Fprintf(&b, "%c %7d, %7d ] %8d %7.3f%% %7.3f%% ", open, left, bucketLimits[i], h.buckets[i],
			mult*float64(h.buckets[i]), mult*float64(cum))
		marks := int(mult*float64(h.buckets[i])/5 + 0.5)
		for j := 0; j < marks; j++ {
			b.WriteByte('#')
		}
		b.WriteByte('\n')
	}
	return b.String()
}
