// Package dbdestroy deletes a database directory the way RocksDB's DestroyDB
// does, for engines that say which names are theirs. It never removes what
// the engine did not name.
//
// # Contract
//
// Destroy(dir, opts, spec), with walDir the options' WALDir:
//
//   - A missing dir is success and deletes nothing, not even WALs in
//     walDir: no lock can be taken in a directory that does not exist, and
//     those WALs may be another DB's (RocksDB's DestroyDB deletes nothing
//     when its LockFile fails, as it does for a missing directory). A
//     missing walDir is success too. A dir or walDir that exists and
//     is not a directory (after following symbolic links, so a --db given
//     through a link works) is an error in RocksDB's words, "IO error:
//     `<path>' exists but is not a directory", returned before anything is
//     touched.
//   - Spec.Lock takes dir/LOCK first; its error is returned as is and
//     nothing is deleted. A LOCK that is not a regular file (a symbolic
//     link, which locking would follow and might create or truncate its
//     target; a directory) is refused the same way: "IO error: While lock
//     file: <dir>/LOCK: not a regular file".
//   - In dir only entries for which Spec.DBFile reports true are unlinked,
//     LOCK last while still held; in walDir (when set) only those for which
//     Spec.WALFile reports true, and only when dir held at least one of
//     the engine's files besides LOCK: the WALs beside an empty or unrelated
//     directory are not that database's (another DB sharing the WAL
//     directory may own them), so they stay, and an open that finds them
//     reports them.
//   - Entries are removed with unlink(2): a symbolic link goes, its target is
//     never opened or deleted, and a directory is never removed (one with a
//     DB file's name is left in place without error). An entry already gone
//     is fine; any other failed unlink is reported ("IO error: while
//     unlink() file: <path>: <cause>", the first one) after trying the rest.
//   - dir and walDir are then removed with rmdir(2) if they are empty; rmdir
//     never removes a non-empty directory or a symbolic link, and its
//     failure is not an error.
//   - With opts.ReportFileOperations, each successful unlink counts as a
//     file deleted in fileops.Process, as RocksDB's DestroyDB counts its
//     DeleteFile calls through db_bench's counting file system (removing
//     the directories is not counted, as DeleteDir is not).
package dbdestroy

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"

	"github.com/godbbench/godbbench/internal/fileops"
	"github.com/godbbench/godbbench/options"
)

// LockName is the lock file's name, the same for every engine.
const LockName = "LOCK"

// Spec says what an engine names.
type Spec struct {
	// Lock takes an exclusive lock on the file path (dir/LOCK), creating it,
	// and fails at once when another holder has it.
	Lock func(path string) (io.Closer, error)
	// DBFile reports whether a name in the DB directory is the engine's.
	DBFile func(name string) bool
	// WALFile reports whether a name in a separate WAL directory is a WAL.
	WALFile func(name string) bool
}

// Destroy deletes the engine's files in dir and in opts.WALDir (when set and
// not dir) as the package contract says.
func Destroy(dir string, opts *options.Options, spec Spec) error {
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
	var deletes *atomic.Uint64 // nil: not counted
	if opts != nil && opts.ReportFileOperations {
		deletes = &fileops.Process.Deletes
	}
	var first error
	if dbExists {
		lockPath := filepath.Join(dir, LockName)
		if fi, err := os.Lstat(lockPath); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("IO error: While lock file: %s: not a regular file", lockPath)
		}
		lock, err := spec.Lock(lockPath)
		if err != nil {
			return err
		}
		owned, err := removeMatching(dir, func(n string) bool { return n != LockName && spec.DBFile(n) }, deletes)
		first = err
		if walExists && owned > 0 {
			_, err := removeMatching(walDir, spec.WALFile, deletes)
			first = firstError(first, err)
		}
		first = firstError(first, unlinkFile(lockPath, deletes))
		lock.Close()
		syscall.Rmdir(dir)
		if walExists {
			syscall.Rmdir(walDir)
		}
	}
	return first
}

func firstError(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// isDirOrMissing reports whether path is an existing directory, false when
// it does not exist, and an error when it is anything else.
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

// removeMatching unlinks the entries of dir whose names match, counting
// each unlinked in deletes (nil: not counted), and returns how many
// matched.
func removeMatching(dir string, match func(name string) bool, deletes *atomic.Uint64) (int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("IO error: While opendir: %s: %w", dir, err)
	}
	var first error
	matched := 0
	for _, e := range ents {
		if match(e.Name()) {
			matched++
			first = firstError(first, unlinkFile(filepath.Join(dir, e.Name()), deletes))
		}
	}
	return matched, first
}

// unlinkFile removes one directory entry with unlink(2), counting it in
// deletes (nil: not counted). A directory is left in place without error;
// an entry already gone is fine.
func unlinkFile(path string, deletes *atomic.Uint64) error {
	err := syscall.Unlink(path)
	switch {
	case err == nil:
		if deletes != nil {
			deletes.Add(1)
		}
		return nil
	case errors.Is(err, syscall.ENOENT):
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
