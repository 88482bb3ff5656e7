package lsm

import (
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/internal/dbdestroy"
	"github.com/godbbench/godbbench/options"
)

// Destroy deletes the database in dir, as RocksDB's DestroyDB does, touching
// nothing the engine did not name (package dbdestroy has the rules):
//
//   - It takes dir/LOCK first and fails, deleting nothing, when another
//     process or another DB of this process holds it; the error wraps
//     ErrLocked and reads "IO error: While lock file: <dir>/LOCK: Resource
//     temporarily unavailable", RocksDB's words.
//   - In dir it unlinks only the names isDBFileName accepts: CURRENT,
//     MANIFEST-<n>, <n>.log, <n>.sst, <n>.blob, <n>.dbtmp, OPTIONS-<n>, LOG,
//     LOG.old.<n>, and LOCK last. Unrelated files, sub-directories and a
//     directory that happens to carry a DB file's name stay.
//   - A symbolic link with a DB file's name is unlinked itself; its target
//     is never followed or deleted.
//   - In Options.WALDir, when set and different from dir, only <n>.log
//     files. A WALDir that exists and is not a directory is an error before
//     anything is deleted.
//   - dir and WALDir are then removed if empty.
//
// A missing dir is success. A directory holding another engine's database
// (foreign.go's rules, as Open applies them) is refused before anything is
// deleted: RocksDB and Pebble give their files the same names.
func Destroy(dir string, opts *options.Options) error {
	if names, err := DefaultFS.List(dir); err == nil {
		if err := foreignDatabase(DefaultFS, dir, names); err != nil {
			return err
		}
	}
	return dbdestroy.Destroy(dir, opts, dbdestroy.Spec{
		Lock:   DefaultFS.Lock,
		DBFile: isDBFileName,
		WALFile: func(name string) bool {
			t, _ := parseFileName(name)
			return t == fileWAL
		},
	})
}

// isDBFileName reports whether name is one the native engine gives a file
// in the DB directory (or one RocksDB gives the same kind of file:
// OPTIONS-<n>, LOG.old.<n>), so Destroy may delete it.
func isDBFileName(name string) bool {
	switch name {
	case currentName, lockName, logName:
		return true
	}
	if t, _ := parseFileName(name); t != fileOther {
		return true
	}
	for _, prefix := range []string{"OPTIONS-", logName + ".old."} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			_, err := strconv.ParseUint(rest, 10, 64)
			return err == nil
		}
	}
	return false
}
