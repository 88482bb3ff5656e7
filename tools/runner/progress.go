package runner

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/godbbench/godbbench/tools/results"
)

// progressTracker follows a running db_bench pass through its log: the
// result lines say how many benchmarks are done, and the progress lines
// db_bench prints ("... finished N ops", with --progress_reports) how far
// the current one is. It reads only what was appended since its last look.
type progressTracker struct {
	path       string
	offset     int64
	partial    string // an unterminated line at the end of the last read
	benchmarks []string
	num        int64 // --num, the ops a benchmark such as fillrandom does
	done       int   // result lines seen
	ops        int64 // ops finished in the current benchmark
	prevOps    int64
	prevAt     time.Time
}

var finishedRE = regexp.MustCompile(`\.\.\. finished (\d+) ops`)

// newProgressTracker follows the log at path of a process run with args.
func newProgressTracker(path string, args []string) *progressTracker {
	t := &progressTracker{path: path, num: 1000000}
	for _, a := range args {
		name, val, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !ok {
			continue
		}
		switch name {
		case "benchmarks":
			t.benchmarks = strings.Split(val, ",")
		case "num":
			if n, err := strconv.ParseInt(val, 10, 64); err == nil {
				t.num = n
			}
		}
	}
	return t
}

// read takes in what the log gained since the last call.
func (t *progressTracker) read() {
	f, err := os.Open(t.path)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Seek(t.offset, io.SeekStart); err != nil {
		return
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return
	}
	t.offset += int64(len(b))
	text := t.partial + string(b)
	cut := strings.LastIndexAny(text, "\r\n")
	t.partial = text[cut+1:]
	for _, seg := range strings.FieldsFunc(text[:cut+1], func(r rune) bool { return r == '\r' || r == '\n' }) {
		if _, ok := results.ParseResultLine(seg); ok {
			t.done++
			t.ops, t.prevOps = 0, 0
		} else if m := finishedRE.FindStringSubmatch(seg); m != nil {
			t.ops, _ = strconv.ParseInt(m[1], 10, 64)
		}
	}
}

// line describes where the pass is at now: the benchmark running, and with
// progress lines the ops done, the rate since the last call and the time
// left at that rate.
func (t *progressTracker) line(now time.Time) string {
	t.read()
	var b strings.Builder
	if t.done < len(t.benchmarks) {
		fmt.Fprintf(&b, "benchmark %d/%d %s", t.done+1, len(t.benchmarks), t.benchmarks[t.done])
	} else {
		fmt.Fprintf(&b, "%d benchmarks done", t.done)
	}
	if t.ops > 0 {
		fmt.Fprintf(&b, ": %d of %d ops", t.ops, t.num)
		if !t.prevAt.IsZero() && t.ops > t.prevOps {
			rate := float64(t.ops-t.prevOps) / now.Sub(t.prevAt).Seconds()
			fmt.Fprintf(&b, ", %.0f ops/s", rate)
			if left := t.num - t.ops; left > 0 && rate > 0 {
				fmt.Fprintf(&b, ", ETA %.0fs", float64(left)/rate)
			}
		}
	}
	t.prevOps, t.prevAt = t.ops, now
	return b.String()
}
