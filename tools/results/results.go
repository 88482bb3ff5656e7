// Package results reads what benchmark processes print: db_bench logs (result
// lines of ours or any db_bench, with or without ToplingDB's
// --report_bench_start_time prefix, with their text histograms, warnings,
// errors and the header's version line), memtablerep_bench reports, and our
// --report_json JSON Lines.
package results

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
)

// Line is one db_bench result line.
type Line struct {
	Start       time.Time // zero when the line had no timestamp
	Name        string
	MicrosPerOp float64
	OpsPerSec   int64
	Seconds     float64
	Ops         int64
	MBPerSec    float64 // 0 when not printed
	Message     string
	// Warnings the engine printed while this benchmark ran: the benchmark
	// did other work than asked, so its numbers are not comparable.
	Warnings []string
	// Latency by op type from the text histograms (--histogram), in µs.
	Latency map[string]jsonrecord.Latency
}

// resultRE is ToplingDB's result-line pattern: an optional ISO-8601 UTC start
// time, the name, then db_bench's fixed fields.
var resultRE = regexp.MustCompile(`^(?:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)Z\s+)?(\S+)\s*:\s*([0-9.]+) micros/op (\d+) ops/sec ([0-9.]+) seconds (\d+) operations;(.*)$`)
var mbRE = regexp.MustCompile(`^\s*([0-9.]+) MB/s\s?(.*)$`)

// ParseDBBench returns every result line in r, in order. Progress lines
// ending in \r are split off so a line captured after them still parses.
func ParseDBBench(r io.Reader) ([]Line, error) {
	lg, err := ParseLog(r)
	return lg.Lines, err
}

// MemLine is one memtablerep_bench benchmark report.
type MemLine struct {
	Benchmark       string
	Threads         int
	ElapsedMicros   int64
	WrittenMiB      float64
	WriteMiBPerSec  float64
	WriteMicrosOp   float64
	ReadMiB         float64
	ReadMiBPerSec   float64
	ReadMicrosOp    float64
	ReadHitPct      float64
	MemoryUsage     int64
	MemoryUsageSeen bool
}

// ParseMemtablerep reads memtablerep_bench output ("Running <name>" blocks
// with RocksDB's labels, plus an ApproximateMemoryUsage line when present).
func ParseMemtablerep(r io.Reader) ([]MemLine, error) {
	var out []MemLine
	var cur *MemLine
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if name, ok := strings.CutPrefix(text, "Running "); ok {
			out = append(out, MemLine{Benchmark: name})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil {
			continue
		}
		key, val, ok := strings.Cut(text, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		num := func() float64 {
			f, _ := strconv.ParseFloat(strings.Fields(val + " 0")[0], 64)
			return f
		}
		switch key {
		case "Number of threads":
			cur.Threads = int(num())
		case "Elapsed time":
			cur.ElapsedMicros = int64(num())
		case "Total bytes written":
			cur.WrittenMiB = num()
		case "Write throughput":
			cur.WriteMiBPerSec = num()
		case "write us/op":
			cur.WriteMicrosOp = num()
		case "Total bytes read":
			cur.ReadMiB = num()
		case "Read throughput":
			cur.ReadMiBPerSec = num()
		case "read us/op":
			cur.ReadMicrosOp = num()
		case "read hit%":
			cur.ReadHitPct = num()
		default:
			if strings.Contains(key, "ApproximateMemoryUsage") {
				cur.MemoryUsage, cur.MemoryUsageSeen = int64(num()), true
			}
		}
	}
	return out, sc.Err()
}

// ReadJSON reads a --report_json file.
func ReadJSON(path string) ([]jsonrecord.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []jsonrecord.Record
	dec := json.NewDecoder(f)
	for {
		var r jsonrecord.Record
		if err := dec.Decode(&r); err == io.EOF {
			return recs, nil
		} else if err != nil {
			return recs, err
		}
		recs = append(recs, r)
	}
}
