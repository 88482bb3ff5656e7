package benchmarksh

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Row is one report.tsv row: field name (from the header row) to value.
type Row map[string]string

// NumericFields are the fields every row must hold a number in: the
// throughput, the latency percentiles and the stall figures.
var NumericFields = []string{"ops_sec", "mb_sec", "usec_op", "p50", "p99", "p99.9", "p99.99", "pmax", "uptime", "stall%", "Nstall"}

// ReadReport parses the report.tsv at path.
func ReadReport(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var header []string
	var rows []Row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if header == nil {
			header = fields
			continue
		}
		if len(fields) != len(header) {
			return nil, fmt.Errorf("%s: row has %d fields, the header %d: %q", path, len(fields), len(header), line)
		}
		row := make(Row, len(header))
		for i, name := range header {
			row[name] = fields[i]
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if header == nil {
		return nil, fmt.Errorf("%s: no header row", path)
	}
	return rows, nil
}

// CheckRow returns an error naming every field of NumericFields that does
// not hold a number.
func CheckRow(r Row) error {
	var bad []string
	for _, name := range NumericFields {
		if _, err := strconv.ParseFloat(r[name], 64); err != nil {
			bad = append(bad, fmt.Sprintf("%s=%q", name, r[name]))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("test %s: not numeric: %s", r["test"], strings.Join(bad, " "))
	}
	return nil
}

// TestName is the test column benchmark.sh writes for job: the prefix of
// its name before the thread and sync suffixes the script appends.
func TestName(job string) string {
	switch job {
	case "fillseq_disable_wal":
		return "fillseq.wal_disabled"
	case "fillseq_enable_wal":
		return "fillseq.wal_enabled"
	}
	return job
}
