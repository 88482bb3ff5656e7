// Package jsonrecord is the record format of db_bench's --report_json: JSON
// Lines, one Record object per benchmark run, warm-up runs included and
// flagged. It holds only the types, so that tools that read reports
// (tools/results, tools/runner) need not link the driver.
//
// Contract: the JSON field names are stable; a field marked omitempty is
// left out when it holds its zero value. Times are RFC 3339 UTC with
// microseconds ("2006-01-02T15:04:05.000000Z"), latencies microseconds.
package jsonrecord

// Record is one line of --report_json.
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
