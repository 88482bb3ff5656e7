package dbbench

import (
	"fmt"
	"io"
	"math"
	"sort"
)

// combinedStats aggregates repeated runs of one benchmark (db_bench's
// CombinedStats): per-run ops/s and MB/s, their mean with a 95% confidence
// half-width (1.959964 * sample stddev / sqrt(n)) and the median.
type combinedStats struct {
	ops []float64
	mbs []float64
}

func (c *combinedStats) add(s *Stats) {
	done := s.done
	if done < 1 {
		done = 1
	}
	elapsed := s.elapsed()
	c.ops = append(c.ops, float64(done)/elapsed)
	if s.bytes > 0 {
		c.mbs = append(c.mbs, float64(s.bytes)/1048576.0/elapsed)
	}
}

func avg(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func stddev(v []float64) float64 {
	if len(v) <= 1 {
		return 0
	}
	a := avg(v)
	s := 0.0
	for _, x := range v {
		s += (x - a) * (x - a)
	}
	return math.Sqrt(s / float64(len(v)-1))
}

func conf95(v []float64) float64 {
	if len(v) <= 1 {
		return 0
	}
	return 1.959964 * stddev(v) / math.Sqrt(float64(len(v)))
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func (c *combinedStats) report(w io.Writer, name string) {
	if len(c.ops) < 2 {
		return
	}
	if len(c.mbs) == len(c.ops) {
		fmt.Fprintf(w, "%s [AVG %d runs] : %d (\u00b1 %d) ops/sec; %6.1f (\u00b1 %.1f) MB/sec\n",
			name, len(c.ops), int(avg(c.ops)), int(conf95(c.ops)), avg(c.mbs), conf95(c.mbs))
	} else {
		fmt.Fprintf(w, "%s [AVG %d runs] : %d (\u00b1 %d) ops/sec\n", name, len(c.ops), int(avg(c.ops)), int(conf95(c.ops)))
	}
}

func (c *combinedStats) reportCI(w io.Writer, name string) {
	if len(c.ops) < 2 {
		return
	}
	a, h := avg(c.ops), conf95(c.ops)
	if len(c.mbs) == len(c.ops) {
		ma, mh := avg(c.mbs), conf95(c.mbs)
		fmt.Fprintf(w, "%s [CI95 %d runs] : (%d, %d) ops/sec; (%.1f, %.1f) MB/sec\n",
			name, len(c.ops), int(a-h), int(a+h), ma-mh, ma+mh)
	} else {
		fmt.Fprintf(w, "%s [CI95 %d runs] : (%d, %d) ops/sec\n", name, len(c.ops), int(a-h), int(a+h))
	}
}

func (c *combinedStats) reportFinal(w io.Writer, name string) {
	if len(c.ops) < 2 {
		return
	}
	n := len(c.ops)
	if len(c.mbs) == n {
		fmt.Fprintf(w, "%s [AVG    %d runs] : %d (\u00b1 %d) ops/sec; %6.1f (\u00b1 %.1f) MB/sec\n%s [MEDIAN %d runs] : %d ops/sec; %6.1f MB/sec\n",
			name, n, int(avg(c.ops)), int(conf95(c.ops)), avg(c.mbs), conf95(c.mbs),
			name, n, int(median(c.ops)), median(c.mbs))
	} else {
		fmt.Fprintf(w, "%s [AVG    %d runs] : %d (\u00b1 %d) ops/sec\n%s [MEDIAN %d runs] : %d ops/sec\n",
			name, n, int(avg(c.ops)), int(conf95(c.ops)), name, n, int(median(c.ops)))
	}
}
