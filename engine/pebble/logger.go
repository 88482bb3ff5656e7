package pebble

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// logger routes Pebble's log output: informational lines are dropped (db_bench
// prints nothing of the engine's own log on its streams; RocksDB writes it to
// the LOG file), errors go to the warning writer, and a fatal error is
// printed there before the process exits, as Pebble's default logger does.
type logger struct {
	mu sync.Mutex
	w  io.Writer

	lastBackground string // the last background error printed
}

func (l *logger) Infof(format string, args ...interface{}) {}

func (l *logger) Errorf(format string, args ...interface{}) {
	l.write("ERROR: pebble: ", format, args...)
}

func (l *logger) Fatalf(format string, args ...interface{}) {
	l.write("FATAL: pebble: ", format, args...)
	os.Exit(1)
}

func (l *logger) write(prefix, format string, args ...interface{}) {
	msg := fmt.Sprintf(format, args...)
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, prefix+msg)
}

// warnf writes one formatted warning line to the warning writer.
func (l *logger) warnf(format string, args ...interface{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format, args...)
}

// backgroundError prints a background error unless it is the one printed
// last: Pebble retries a failed compaction or table-stats job at once, and
// a damaged table would otherwise print the same line thousands of times.
func (l *logger) backgroundError(err error) {
	msg := "ERROR: pebble: background error: " + err.Error() + "\n"
	l.mu.Lock()
	defer l.mu.Unlock()
	if msg == l.lastBackground {
		return
	}
	l.lastBackground = msg
	io.WriteString(l.w, msg)
}
