package pebble

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// infoLogName is the text log the engine writes into the DB directory.
// Pebble keeps no such file; RocksDB's tools read one. At every
// read-write open the engine replaces it with two lines, stamped as
// RocksDB stamps its LOG ("<date>-<time> <pid> ..."):
//
//	2026/12/02-03:04:07.123456 4242 RocksDB version: pebble-2.1.7
//	2026/12/02-03:04:07.123456 4242 Engine: Pebble v2.1.7 (github.com/cockroachdb/pebble/v2)
//
// tools/benchmark.sh takes field 5 of the first "RocksDB version:" line
// for report.tsv's version column, so its rows name the engine that ran.
// The file is the engine's: Destroy deletes it with Pebble's own files.
const infoLogName = "LOG"

// writeInfoLog replaces dir's LOG. It is best effort, as RocksDB's info
// log is: a failure leaves the database as it is, and a LOG that is a
// symbolic link is not followed (opening it would truncate its target), so
// no LOG is written then.
func writeInfoLog(dir, version string) {
	now := time.Now().Format("2006/01/02-15:04:05.000000")
	pid := os.Getpid()
	text := fmt.Sprintf("%s %d RocksDB version: pebble-%s\n%s %d Engine: Pebble %s (%s)\n",
		now, pid, strings.TrimPrefix(version, "v"), now, pid, version, modulePath)
	f, err := os.OpenFile(filepath.Join(dir, infoLogName), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return
	}
	f.WriteString(text)
	f.Close()
}
