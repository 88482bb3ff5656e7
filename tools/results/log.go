package results

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
)

// Log is what a db_bench log (stdout and stderr captured into one file)
// says besides the result lines' numbers.
//
// Warnings are the lines that begin with "WARNING:". One printed before the
// header's closing line of dashes (or before any result line when there is
// none) concerns the whole pass and goes to PassWarnings; one printed later
// concerns the benchmark that was running and goes to the Warnings of the
// next result line. Warnings after the last result line (printed at close,
// or by a benchmark that never finished) go to PassWarnings too.
//
// Latency comes from the text histograms db_bench prints after a result line
// with --histogram ("Microseconds per read:", "Count: ... Average: ...",
// "Min: ... Max: ...", "Percentiles: P50: ... P99.99: ..."), so binaries
// without --report_json (C++ db_bench) still report percentiles.
type Log struct {
	Lines        []Line
	Version      string   // the header's first "NAME: version V" line as "NAME V", e.g. "RocksDB 7.8.3"
	PassWarnings []string // warnings that concern the whole pass
	Errors       []string // lines where the process or a benchmark reported an error
	LastLine     string   // the last line that was not empty, to say why a process failed
}

var (
	versionRE = regexp.MustCompile(`^(\w[\w ]*?):\s+version\s+(\S+)`)
	histOpRE  = regexp.MustCompile(`^Microseconds per (\w+):$`)
	countRE   = regexp.MustCompile(`^Count: (\d+) Average: ([0-9.]+)`)
	maxRE     = regexp.MustCompile(`^Min: \S+\s+Median: \S+\s+Max: ([0-9.]+)`)
	pctRE     = regexp.MustCompile(`^Percentiles: P50: ([0-9.]+) P75: ([0-9.]+) P99: ([0-9.]+) P99\.9: ([0-9.]+) P99\.99: ([0-9.]+)`)
	// errorRE matches db_bench's error reports: our "ERROR: ..." and C++'s
	// "put error: ...", "Get error: ...", "close error: ...".
	errorRE = regexp.MustCompile(`^(ERROR:|[A-Za-z_ ]* error: )`)
)

// headerEnd is the line of dashes that closes db_bench's header.
const headerEnd = "------------------------------------------------"

// ParseLog reads a whole db_bench log.
func ParseLog(r io.Reader) (*Log, error) {
	lg := &Log{}
	var pending []string
	headerDone := false
	histOp := "" // op type of the histogram being read, after a result line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		text := sc.Text()
		// Progress lines end in \r; what follows the last one is a line.
		if i := strings.LastIndexByte(text, '\r'); i >= 0 {
			text = text[i+1:]
		}
		if strings.TrimSpace(text) != "" {
			lg.LastLine = text
		}
		if l, ok := ParseResultLine(text); ok {
			headerDone = true
			l.Warnings, pending = pending, nil
			lg.Lines = append(lg.Lines, l)
			histOp = ""
			continue
		}
		switch {
		case strings.HasPrefix(text, "WARNING:"):
			if headerDone {
				pending = append(pending, text)
			} else {
				lg.PassWarnings = append(lg.PassWarnings, text)
			}
		case text == headerEnd:
			headerDone = true
		case errorRE.MatchString(text):
			lg.Errors = append(lg.Errors, text)
		case !headerDone && lg.Version == "":
			if m := versionRE.FindStringSubmatch(text); m != nil {
				lg.Version = m[1] + " " + m[2]
			}
		case len(lg.Lines) > 0:
			histOp = lg.Lines[len(lg.Lines)-1].readHistogram(histOp, text)
		}
	}
	lg.PassWarnings = append(lg.PassWarnings, pending...)
	return lg, sc.Err()
}

// readHistogram takes one line of the text histograms that follow a result
// line and returns the op type now being read.
func (l *Line) readHistogram(op, text string) string {
	if m := histOpRE.FindStringSubmatch(text); m != nil {
		if l.Latency == nil {
			l.Latency = map[string]jsonrecord.Latency{}
		}
		l.Latency[m[1]] = jsonrecord.Latency{}
		return m[1]
	}
	if op == "" {
		return ""
	}
	lat := l.Latency[op]
	f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	if m := countRE.FindStringSubmatch(text); m != nil {
		lat.Count, _ = strconv.ParseInt(m[1], 10, 64)
		lat.Mean = f(m[2])
	} else if m := maxRE.FindStringSubmatch(text); m != nil {
		lat.Max = f(m[1])
	} else if m := pctRE.FindStringSubmatch(text); m != nil {
		lat.P50, lat.P75, lat.P99, lat.P999, lat.P9999 = f(m[1]), f(m[2]), f(m[3]), f(m[4]), f(m[5])
	}
	l.Latency[op] = lat
	return op
}

// ParseResultLine parses one db_bench result line.
func ParseResultLine(text string) (Line, bool) {
	m := resultRE.FindStringSubmatch(text)
	if m == nil {
		return Line{}, false
	}
	var l Line
	if m[1] != "" {
		l.Start, _ = time.Parse("2006-01-02T15:04:05.999999", m[1])
	}
	l.Name = m[2]
	l.MicrosPerOp, _ = strconv.ParseFloat(m[3], 64)
	l.OpsPerSec, _ = strconv.ParseInt(m[4], 10, 64)
	l.Seconds, _ = strconv.ParseFloat(m[5], 64)
	l.Ops, _ = strconv.ParseInt(m[6], 10, 64)
	extra := m[7]
	if mm := mbRE.FindStringSubmatch(extra); mm != nil {
		l.MBPerSec, _ = strconv.ParseFloat(mm[1], 64)
		extra = mm[2]
	}
	l.Message = strings.TrimSpace(extra)
	return l, true
}
