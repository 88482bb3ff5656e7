package dbbench

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Record is one line of --report_json (JSON Lines: one object per benchmark
// run, warm-ups included and flagged). Field names are stable: the suite
// runner and other tools parse them.
type Record struct {
	Benchmark   string             `json:"benchmark"`
	Engine      string             `json:"engine"`
	Warmup      bool               `json:"warmup,omitempty"`
	Threads     int                `json:"threads"`
	Ops         int64              `json:"ops"`
	Seconds     float64            `json:"seconds"`       // wall time of the run
	MicrosPerOp float64            `json:"micros_per_op"` // summed thread time / ops, as printed
	OpsPerSec   float64            `json:"ops_per_sec"`
	Bytes       int64              `json:"bytes"`
	MBPerSec    float64            `json:"mb_per_sec"`
	Reads       int64              `json:"reads,omitempty"`
	Found       int64              `json:"found,omitempty"`
	Checksum    string             `json:"checksum,omitempty"` // 16 hex digits, order-independent fold of what was read
	Message     string             `json:"message,omitempty"`
	StartTime   string             `json:"start_time"` // RFC 3339 UTC, microseconds
	EndTime     string             `json:"end_time"`
	Latency     map[string]Latency `json:"latency_us,omitempty"` // by op type, with --histogram
	Flags       map[string]string  `json:"flags,omitempty"`      // explicitly set flags
	Extra       map[string]any     `json:"extra,omitempty"`
}

// Latency summarises one op type's latencies in microseconds.
type Latency struct {
	Count int64   `json:"count"`
	Mean  float64 `json:"mean"`
	P50   float64 `json:"p50"`
	P75   float64 `json:"p75"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p99.9"`
	P9999 float64 `json:"p99.99"`
	Max   float64 `json:"max"`
}

// hdrRecorder keeps an HDR histogram (1 µs .. 1 h, 3 significant figures,
// about 180 KiB) per thread and op type for the JSON percentiles; it is only
// made when --histogram is on.
type hdrRecorder struct{ h *hdr.Histogram }

func newHdrRecorder() *hdrRecorder { return &hdrRecorder{h: hdr.New(1, 3_600_000_000, 3)} }

func (r *hdrRecorder) record(v int64) {
	if v < 1 {
		v = 1
	}
	if v > 3_600_000_000 {
		v = 3_600_000_000
	}
	_ = r.h.RecordValue(v)
}

func (r *hdrRecorder) merge(o *hdrRecorder) { r.h.Merge(o.h) }

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

func (j *jsonReporter) write(rec *Record) {
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

// record writes the JSON line for a finished run.
func (j *jsonReporter) record(r *runner, name string, s *Stats, threads int, warmup bool, start time.Time) {
	if j == nil {
		return
	}
	elapsed := s.elapsed()
	rec := &Record{
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
		rec.Latency = map[string]Latency{}
		for _, t := range s.histOrd {
			h := s.hdr[t].h
			name := opTypeNames[t]
			if name == "" {
				name = "uncompress"
			}
			rec.Latency[name] = Latency{
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
