package dbbench

import (
	"bufio"
	"fmt"
	"os"
	"sync/atomic"
	"time"
)

// csvReporter is db_bench's ReporterAgent (--report_interval_seconds): a
// goroutine per benchmark run that truncates --report_file, writes
// "secs_elapsed,interval_qps" and then, every interval, the rounded seconds
// since start and the ops done since the previous row (all threads,
// background writers included).
type csvReporter struct {
	stopCh chan struct{}
	done   chan struct{}
}

func startCSVReporter(path string, intervalSecs int64, ops *atomic.Int64) (*csvReporter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("Can't open %s: %s", path, ioErrorText("While open a file for appending", path, err))
	}
	w := bufio.NewWriter(f)
	w.WriteString(csvHeader)
	if err := w.Flush(); err != nil {
		f.Close()
		return nil, fmt.Errorf("Can't open %s: %s", path, ioErrorText("While appending to file", path, err))
	}
	c := &csvReporter{stopCh: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer f.Close()
		start := time.Now()
		tick := time.NewTicker(time.Duration(intervalSecs) * time.Second)
		defer tick.Stop()
		var last int64
		for {
			select {
			case <-c.stopCh:
				return
			case <-tick.C:
				total := ops.Load()
				w.WriteString(csvRow(time.Since(start), total-last))
				w.Flush()
				last = total
			}
		}
	}()
	return c, nil
}

func (c *csvReporter) stop() {
	close(c.stopCh)
	<-c.done
}

// csvHeader is the first line of --report_file.
const csvHeader = "secs_elapsed,interval_qps\n"

// csvRow is one row of --report_file: the seconds since the reporter started,
// rounded to the nearest second (half up, on whole microseconds as db_bench
// counts them), and the ops finished since the previous row.
func csvRow(elapsed time.Duration, ops int64) string {
	secs := (elapsed.Microseconds() + 500000) / 1000000
	return fmt.Sprintf("%d,%d\n", secs, ops)
}
