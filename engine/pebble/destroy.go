package pebble

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/atomicfs"

	"github.com/godbbench/godbbench/internal/dbdestroy"
	"github.com/godbbench/godbbench/options"
)

// Destroy deletes the Pebble database in dir by package dbdestroy's rules,
// with Pebble's names (isPebbleFileName; only isPebbleWALName in --wal_dir)
// and Pebble's own lock (lockPebbleDir), so a DB open in this process or
// another is refused with RocksDB's words and nothing is deleted. A
// directory without Pebble's MANIFEST marker that holds a RocksDB-format
// database (RocksDB's or the native engine's, whose names Pebble's mostly
// share) is refused first, as the open refuses it, and nothing is deleted.
func Destroy(dir string, opts *options.Options) error {
	if err := notPebbleFormat(dir); err != nil {
		return err
	}
	return dbdestroy.Destroy(dir, opts, dbdestroy.Spec{Lock: lockPebbleDir, DBFile: isPebbleFileName, WALFile: isPebbleWALName})
}

// notPebbleFormat is rocksdbFormat's refusal for dir when it has no MANIFEST
// marker; nil for a Pebble database, an empty or missing directory, or one
// that cannot be read (dbdestroy reports that).
func notPebbleFormat(dir string) error {
	names, err := vfs.Default.List(dir)
	if err != nil {
		return nil
	}
	if m, err := atomicfs.ReadMarker(vfs.Default, dir, "manifest"); err == nil && m != "" {
		return nil
	}
	return rocksdbFormat(dir, names)
}

// lockPebbleDir takes path the way pebble.Open does, so a DB open in this
// process or another is seen as held. Within one process Pebble knows its
// locks by the path string (F_SETLK locks belong to the process, and closing
// any descriptor of the file drops them), so a DB this process opened under
// another spelling of the same directory is not seen; the driver destroys
// only DBs it has closed, under the one --db spelling.
func lockPebbleDir(path string) (io.Closer, error) {
	l, err := vfs.Default.Lock(path)
	if err == nil {
		return l, nil
	}
	// F_SETLK reports a conflicting lock as EAGAIN or EACCES; Pebble
	// refuses a second lock of its own with a plain error.
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) ||
		strings.Contains(err.Error(), "lock held by current process") {
		return nil, fmt.Errorf("IO error: While lock file: %s: Resource temporarily unavailable", path)
	}
	return nil, fmt.Errorf("IO error: While lock file: %s: %w", path, err)
}

// isPebbleFileName reports whether name is one Pebble v2 gives a file in
// its directory, or the engine's LOG (infolog.go):
//
//	LOCK, CURRENT (stores before the manifest marker), LOG
//	MANIFEST-<n>, OPTIONS-<n>
//	<n>.sst, <n>.blob, <n>.log, <n>-<i>.log
//	CURRENT.<n>.dbtmp, temporary.<n>.dbtmp
//	marker.<name>.<n>.<value> (the format-version and manifest markers)
//
// where <n> and <i> are decimal numbers.
func isPebbleFileName(name string) bool {
	switch name {
	case dbdestroy.LockName, "CURRENT", infoLogName:
		return true
	}
	for _, prefix := range []string{"MANIFEST-", "OPTIONS-"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			return isNumber(rest)
		}
	}
	if rest, ok := strings.CutPrefix(name, "marker."); ok {
		parts := strings.SplitN(rest, ".", 3)
		return len(parts) == 3 && parts[0] != "" && isNumber(parts[1]) && parts[2] != ""
	}
	if rest, ok := strings.CutSuffix(name, ".dbtmp"); ok {
		for _, prefix := range []string{"CURRENT.", "temporary."} {
			if num, ok := strings.CutPrefix(rest, prefix); ok {
				return isNumber(num)
			}
		}
		return false
	}
	if isPebbleWALName(name) {
		return true
	}
	base, ext, ok := strings.Cut(name, ".")
	return ok && (ext == "sst" || ext == "blob") && isNumber(base)
}

// isPebbleWALName reports whether name is a Pebble WAL: <n>.log, or
// <n>-<i>.log for a WAL continued after a failover.
func isPebbleWALName(name string) bool {
	base, ok := strings.CutSuffix(name, ".log")
	if !ok {
		return false
	}
	num, idx, hasIdx := strings.Cut(base, "-")
	return isNumber(num) && (!hasIdx || isNumber(idx))
}

func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}
