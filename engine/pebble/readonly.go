package pebble

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/godbbench/godbbench/engine"
)

// Read-only databases (options.Options.ReadOnly, db_bench --readonly).
//
// The database opens with Pebble's Options.ReadOnly: Pebble replays the
// WALs into memory, writes no file, removes none and creates no directory,
// so the directory is left byte for byte as it was. Every write (Put,
// Delete, Apply, Flush, Compact) returns errReadOnly, RocksDB's status for
// a write to a DB opened with OpenForReadOnly; C++ db_bench prints it as
// "put error: Not implemented: Not supported operation in read only mode."
// and exits 1. A directory without a Pebble database fails to open: RocksDB
// fails on its missing CURRENT file, Pebble has no CURRENT, and the error
// names what Pebble looks for instead, its MANIFEST marker.

// errReadOnly is engine.ErrReadOnly, RocksDB's Status::NotSupported("Not
// supported operation in read only mode.") as Status::ToString words it.
var errReadOnly = engine.ErrReadOnly

// readOnlyOpenError words the failure to open dir read-only: a missing
// database in RocksDB's shape for a missing file, anything else as Pebble
// reported it.
func readOnlyOpenError(dir string, err error) error {
	if _, statErr := os.Stat(dir); errors.Is(err, pebble.ErrDBDoesNotExist) || errors.Is(statErr, fs.ErrNotExist) {
		return fmt.Errorf("IO error: No such file or directory: While opening a database read-only: %s: "+
			"no Pebble database (no marker.manifest file)", dir)
	}
	return fmt.Errorf("pebble: open %s read-only: %w", dir, err)
}

// readOnlyFS is the file system of a read-only database: every call that
// would change the directory fails with errReadOnly, so nothing Pebble does
// can write, and the LOCK file is locked only when it exists. Pebble's
// read-only Open still creates LOCK when it is missing (vfs.Lock makes the
// file), where RocksDB's read-only open takes no lock at all; so a missing
// LOCK is not created and not locked, as in RocksDB.
type readOnlyFS struct{ vfs.FS }

func (readOnlyFS) Create(string, vfs.DiskWriteCategory) (vfs.File, error) { return nil, errReadOnly }
func (readOnlyFS) Link(string, string) error                              { return errReadOnly }
func (readOnlyFS) Remove(string) error                                    { return errReadOnly }
func (readOnlyFS) RemoveAll(string) error                                 { return errReadOnly }
func (readOnlyFS) Rename(string, string) error                            { return errReadOnly }
func (readOnlyFS) MkdirAll(string, os.FileMode) error                     { return errReadOnly }

func (readOnlyFS) OpenReadWrite(string, vfs.DiskWriteCategory, ...vfs.OpenOption) (vfs.File, error) {
	return nil, errReadOnly
}

func (readOnlyFS) ReuseForWrite(string, string, vfs.DiskWriteCategory) (vfs.File, error) {
	return nil, errReadOnly
}

// Lock locks name if it exists; a missing LOCK file is left missing.
func (r readOnlyFS) Lock(name string) (io.Closer, error) {
	if _, err := r.FS.Stat(name); errors.Is(err, fs.ErrNotExist) {
		return io.NopCloser(nil), nil
	}
	return r.FS.Lock(name)
}

// Unwrap gives the file system below, as vfs.FS asks.
func (r readOnlyFS) Unwrap() vfs.FS { return r.FS }
