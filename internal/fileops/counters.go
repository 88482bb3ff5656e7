// Package fileops counts a database's file operations for db_bench's
// --report_file_operations, in the counters RocksDB 7.8.3's
// CountedFileSystem keeps and db_bench prints after each benchmark: files
// opened, deleted and renamed; Flush, Sync and Fsync calls on files; Fsync
// calls, opens and closes of directories; closes of files and directories;
// reads and appends, and their bytes.
//
// What an engine counts as each is the engine's to say (its file layer
// does the counting); the rules RocksDB follows, which the engines here
// follow where their file layer allows, are: an open, delete, rename,
// flush, sync or close counts when it succeeds; a read or append counts
// always, its bytes only when it succeeds; opening a directory counts as
// a file opened and a directory opened, closing one as a file closed and
// a directory closed.
package fileops

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Process are the counts of every database the process opened with
// --report_file_operations: db_bench's counters are the process's.
var Process Counters

// Counters are the counts, safe for concurrent use. The zero value is
// ready.
type Counters struct {
	Opens, Deletes, Renames           atomic.Uint64
	Flushes, Syncs, Fsyncs, DirFsyncs atomic.Uint64
	Closes, DirOpens, DirCloses       atomic.Uint64
	Reads, Appends                    atomic.Uint64
	BytesRead, BytesWritten           atomic.Uint64
}

// Read counts a read of n bytes, which succeeded when ok.
func (c *Counters) Read(n int, ok bool) {
	c.Reads.Add(1)
	if ok {
		c.BytesRead.Add(uint64(n))
	}
}

// Append counts a write of n bytes, which succeeded when ok.
func (c *Counters) Append(n int, ok bool) {
	c.Appends.Add(1)
	if ok {
		c.BytesWritten.Add(uint64(n))
	}
}

// OnSuccess adds one to counter when err is nil and returns err.
func OnSuccess(counter *atomic.Uint64, err error) error {
	if err == nil {
		counter.Add(1)
	}
	return err
}

// DirOpened counts a directory opened.
func (c *Counters) DirOpened() { c.Opens.Add(1); c.DirOpens.Add(1) }

// DirClosed counts a directory closed.
func (c *Counters) DirClosed() { c.Closes.Add(1); c.DirCloses.Add(1) }

// Report returns the counts in db_bench's words and order, one
// "Num ...: N" line each, and sets them back to zero (db_bench reports
// each benchmark's operations and resets its counters after).
func (c *Counters) Report() string {
	var b strings.Builder
	for _, l := range []struct {
		name string
		c    *atomic.Uint64
	}{
		{"Num files opened", &c.Opens}, {"Num files deleted", &c.Deletes},
		{"Num files renamed", &c.Renames}, {"Num Flush()", &c.Flushes},
		{"Num Sync()", &c.Syncs}, {"Num Fsync()", &c.Fsyncs},
		{"Num Dir Fsync()", &c.DirFsyncs}, {"Num Close()", &c.Closes},
		{"Num Dir Open()", &c.DirOpens}, {"Num Dir Close()", &c.DirCloses},
		{"Num Read()", &c.Reads}, {"Num Append()", &c.Appends},
		{"Num bytes read", &c.BytesRead}, {"Num bytes written", &c.BytesWritten},
	} {
		fmt.Fprintf(&b, "%s: %d\n", l.name, l.c.Swap(0))
	}
	return b.String()
}
