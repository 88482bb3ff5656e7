package dbbench

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
)

// hdrRecorder keeps an HDR histogram (1 µs .. 1 h, 3 significant figures,
// about 180 KiB) per thread and op type for the JSON percentiles; it is only
// made when --histogram is on.
//
// Latencies under hdrLow µs (nearly every operation of a scan or a cached
// read) are counted in low and handed to the HDR histogram in bulk by
// flush, instead of a RecordValue (index arithmetic, range checks, two
// counter updates) per operation.
type hdrRecorder struct {
	h   *hdr.Histogram
	low [hdrLow]int64 // low[v]: operations of v µs not yet in h (0 counts as 1)
}

const hdrLow = 64

func newHdrRecorder() *hdrRecorder { return &hdrRecorder{h: hdr.New(1, 3_600_000_000, 3)} }

func (r *hdrRecorder) record(v int64) {
	if v < hdrLow {
		r.low[max(v, 0)]++
		return
	}
	v = min(v, 3_600_000_000)
	_ = r.h.RecordValue(v)
}

// flush moves the counts of low into h.
func (r *hdrRecorder) flush() {
	for v, n := range r.low {
		if n > 0 {
			_ = r.h.RecordValues(max(int64(v), 1), n)
			r.low[v] = 0
		}
	}
}

// histogram returns the histogram of every recorded value.
func (r *hdrRecorder) histogram() *hdr.Histogram {
	r.flush()
	return r.h
}

func (r *hdrRecorder) merge(o *hdrRecorder) { r.histogram().Merge(o.histogram()) }

type jsonReporter struct {
	mu     sync.Mutex
	f      *os.File
	engine string
	flags  map[string]string
}

func openJSONReporter(path, engine string, flags map[string]string) (*jsonReporter, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cannot create --report_json file: %v", err)
	}
	return &jsonReporter{f: f, engine: engine, flags: flags}, nil
}

func (j *jsonReporter) write(rec *jsonrecord.Record) {
	if j == nil {
		return
	}
	rec.Engine = j.engine
	rec.Flags = j.flags
	b, _ := json.Marshal(rec)
	j.mu.Lock()
	j.f.Write(append(b, '\n'))
	j.mu.Unlock()
}

func (j *jsonReporter) close() error {
	if j == nil {
		return nil
	}
	return j.f.Close()
}

func isoMicros(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// record writes the JSON line (a jsonrecord.Record) for a finished run.
func (j *jsonReporter) record(r *runner, name string, s *Stats, threads int, warmup bool, start time.Time) {
	if j == nil {
		return
	}
	elapsed := s.elapsed()
	rec := &jsonrecord.Record{
		Benchmark:   name,
		Warmup:      warmup,
		Threads:     threads,
		Ops:         s.done,
		Seconds:     elapsed,
		MicrosPerOp: s.seconds * 1e6 / float64(s.done),
		OpsPerSec:   float64(s.done) / elapsed,
		Bytes:       s.bytes,
		Reads:       s.reads,
		Found:       s.found,
		Message:     trimNL(s.message),
		StartTime:   isoMicros(s.start),
		EndTime:     isoMicros(s.finish),
	}
	if s.bytes > 0 {
		rec.MBPerSec = float64(s.bytes) / 1048576.0 / elapsed
	}
	if s.reads > 0 {
		rec.Checksum = fmt.Sprintf("%016X", s.checksum)
	}
	if len(s.histOrd) > 0 {
		rec.Latency = map[string]jsonrecord.Latency{}
		for _, t := range s.histOrd {
			h := s.hdr[t].histogram()
			name := opTypeNames[t]
			if name == "" {
				name = "uncompress"
			}
			rec.Latency[name] = jsonrecord.Latency{
				Count: h.TotalCount(), Mean: h.Mean(),
				P50: float64(h.ValueAtPercentile(50)), P75: float64(h.ValueAtPercentile(75)),
				P99: float64(h.ValueAtPercentile(99)), P999: float64(h.ValueAtPercentile(99.9)),
				P9999: float64(h.ValueAtPercentile(99.99)), Max: float64(h.Max()),
			}
		}
	}
	j.write(rec)
}

func trimNL(s string) string {
	for len(s) > 0 && s[len(s)-1] == '\n' {
		s = s[:len(s)-1]
	}
	return s
}
