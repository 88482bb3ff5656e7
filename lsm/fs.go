package lsm

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/internal/osfile"
)

// WritableFile is a file being written: the WAL, the MANIFEST, a table.
type WritableFile interface {
	io.Writer
	Sync() error
	Close() error
}

// FS is the file system the DB writes through. Tests wrap DefaultFS to inject
// faults (ENOSPC, failed fsync). Tables are read through *os.File because
// sst.Open takes one (for pread and mmap).
type FS interface {
	Create(name string) (WritableFile, error)
	OpenReadOnly(name string) (*os.File, error)
	ReadFile(name string) ([]byte, error)
	Rename(oldname, newname string) error
	Remove(name string) error
	MkdirAll(dir string) error
	// List returns the names (not paths) of the entries of dir.
	List(dir string) ([]string, error)
	// Lock takes an exclusive advisory lock on name, creating it, and fails at
	// once if another process holds it.
	Lock(name string) (io.Closer, error)
	SyncDir(dir string) error
}

// DefaultFS is the operating system's file system.
var DefaultFS FS = osFS{}

type osFS struct{}

func (osFS) Create(name string) (WritableFile, error) {
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
}
func (osFS) OpenReadOnly(name string) (*os.File, error) { return os.Open(name) }
func (osFS) ReadFile(name string) ([]byte, error)       { return os.ReadFile(name) }
func (osFS) Rename(o, n string) error                   { return os.Rename(o, n) }
func (osFS) Remove(name string) error                   { return os.Remove(name) }
func (osFS) MkdirAll(dir string) error                  { return os.MkdirAll(dir, 0o755) }

func (osFS) List(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names, nil
}

func (osFS) SyncDir(dir string) error { return osfile.SyncDir(dir) }

// ErrLocked is wrapped by Open's error when another process has the DB open.
var ErrLocked = errors.New("lsm: database is locked by another process")

// lockedError is the error for a LOCK another holder has, in RocksDB's
// words; it wraps ErrLocked.
type lockedError struct{ name string }

func (e *lockedError) Error() string {
	return "IO error: While lock file: " + e.name + ": Resource temporarily unavailable"
}
func (e *lockedError) Unwrap() error { return ErrLocked }

func (osFS) Lock(name string) (io.Closer, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := osfile.Flock(f, true); err != nil {
		f.Close()
		if errors.Is(err, osfile.ErrWouldBlock) {
			return nil, &lockedError{name}
		}
		return nil, fmt.Errorf("lsm: lock %s: %w", name, err)
	}
	return f, nil
}

// File names inside the DB directory.
const (
	currentName = "CURRENT"
	lockName    = "LOCK"
	logName     = "LOG"
)

func tableName(dir string, num uint64) string {
	return filepath.Join(dir, fmt.Sprintf("%06d.sst", num))
}
func walName(dir string, num uint64) string { return filepath.Join(dir, fmt.Sprintf("%06d.log", num)) }
func manifestName(num uint64) string        { return fmt.Sprintf("MANIFEST-%06d", num) }

// fileType classifies a name found in the DB or WAL directory.
type fileType int

const (
	fileOther fileType = iota
	fileTable
	fileWAL
	fileManifest
	fileTemp
	fileBlob
)

func parseFileName(name string) (fileType, uint64) {
	if rest, ok := strings.CutPrefix(name, "MANIFEST-"); ok {
		if num, err := strconv.ParseUint(rest, 10, 64); err == nil {
			return fileManifest, num
		}
		return fileOther, 0
	}
	base, ext, ok := strings.Cut(name, ".")
	if !ok {
		return fileOther, 0
	}
	num, err := strconv.ParseUint(base, 10, 64)
	if err != nil {
		return fileOther, 0
	}
	switch ext {
	case "sst":
		return fileTable, num
	case "log":
		return fileWAL, num
	case "dbtmp":
		return fileTemp, num
	case "blob":
		return fileBlob, num
	}
	return fileOther, 0
}
