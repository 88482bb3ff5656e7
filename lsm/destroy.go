package lsm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/godbbench/godbbench/options"
)

// Destroy deletes the database in dir, as RocksDB's DestroyDB does, touching
// nothing the engine did not name:
//
//   - It takes dir/LOCK first and fails, deleting nothing, when another
//     process or another DB of this process holds it; the error wraps
//     ErrLocked and reads "IO error: While lock file: <dir>/LOCK: Resource
//     temporarily unavailable", RocksDB's words.
//   - In dir it unlinks only names the engine gives its files (see
//     isDBFileName): CURRENT, MANIFEST-<n>, <n>.log, <n>.sst, <n>.dbtmp,
//     OPTIONS-<n>, LOG, LOG.old.<n>, and LOCK last, while still holding it.
//     Everything else stays: unrelated files, sub-directories, and a
//     directory that happens to carry a DB file's name.
//   - A symbolic link with a DB file's name is unlinked itself; its target
//     is never opened, followed or deleted.
//   - In Options.WALDir, when set and different from dir, only <n>.log files.
//     A WALDir that exists and is not a directory is an error before anything
//     is deleted.
//   - dir and WALDir are then removed if they are empty (rmdir, which never
//     removes a non-empty directory or a symbolic link); failing that is not
//     an error.
//
// A missing dir (and WALDir) is success. A dir that is not a directory is an
// error, as is any failed unlink (the first is reported after trying all).
func Destroy(dir string, opts *options.Options) error {
	walDir := ""
	if opts != nil && opts.WALDir != "" && filepath.Clean(opts.WALDir) != filepath.Clean(dir) {
		walDir = opts.WALDir
	}
	dbExists, err := isDirOrMissing(dir)
	if err != nil {
		return err
	}
	walExists := false
	if walDir != "" {
		if walExists, err = isDirOrMissing(walDir); err != nil {
			return err
		}
	}
	var first error
	keep := func(err error) {
		if first == nil {
			first = err
		}
	}
	if dbExists {
		lockPath := filepath.Join(dir, lockName)
		lock, err := DefaultFS.Lock(lockPath)
		if err != nil {
			return err
		}
		names, err := DefaultFS.List(dir)
		if err != nil {
			lock.Close()
			return fmt.Errorf("IO error: While opendir: %s: %w", dir, err)
		}
		for _, n := range names {
			if n != lockName && isDBFileName(n) {
				keep(unlinkFile(filepath.Join(dir, n)))
			}
		}
		if walExists {
			keep(removeWALFiles(walDir))
		}
		keep(unlinkFile(lockPath))
		lock.Close()
		syscall.Rmdir(dir)
	} else if walExists {
		keep(removeWALFiles(walDir))
	}
	if walExists {
		syscall.Rmdir(walDir)
	}
	return first
}

// isDirOrMissing reports whether path is an existing directory (following
// symbolic links, so a --db given through a link works), false when it does
// not exist, and an error when it is anything else.
func isDirOrMissing(path string) (bool, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("IO error: While stat a file: %s: %w", path, err)
	case !fi.IsDir():
		return false, fmt.Errorf("IO error: `%s' exists but is not a directory", path)
	}
	return true, nil
}

// removeWALFiles unlinks the <n>.log files of a separate WAL directory.
func removeWALFiles(dir string) error {
	names, err := DefaultFS.List(dir)
	if err != nil {
		return fmt.Errorf("IO error: While opendir: %s: %w", dir, err)
	}
	var first error
	for _, n := range names {
		if t, _ := parseFileName(n); t == fileWAL {
			if err := unlinkFile(filepath.Join(dir, n)); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// unlinkFile removes one directory entry with unlink(2), which removes a
// symbolic link rather than its target and never removes a directory. A
// directory is left in place without error; an entry already gone is fine.
func unlinkFile(path string) error {
	err := syscall.Unlink(path)
	switch {
	case err == nil, errors.Is(err, syscall.ENOENT):
		return nil
	case errors.Is(err, syscall.EISDIR), errors.Is(err, syscall.EPERM) && isDir(path):
		return nil
	}
	return fmt.Errorf("IO error: while unlink() file: %s: %w", path, err)
}

func isDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}

// isDBFileName reports whether name is one the native engine gives a file
// in the DB directory (or one RocksDB gives the same kind of file: OPTIONS-<n>,
// LOG.old.<n>), so Destroy may delete it.
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
