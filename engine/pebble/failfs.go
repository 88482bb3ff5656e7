package pebble

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// failFS is the file system the engine gives Pebble. It turns the first
// failed write into an error the engine returns from every later write and
// from Close, while Pebble itself never sees a write fail.
//
// Why: Pebble v2.1.7 treats a failed WAL write as fatal. It panics in the
// committing goroutine while holding its commit mutex (commitWrite,
// rotateWAL), so DB.Close blocks forever on that mutex; a failed MANIFEST
// write calls Logger.Fatalf; and a failed flush is retried at once, forever,
// while writers stalled on the memtable limit wait for it. A full disk (or
// an I/O error) therefore hung the benchmark, or killed it without Close.
//
// How: the first write-side call that fails (a file's Write, WriteAt, Sync,
// SyncData, SyncTo or Close, or Create, ReuseForWrite, OpenReadWrite,
// Rename, Link, MkdirAll, Remove with ENOSPC, EDQUOT, EIO or EROFS) freezes
// the directory: from then on every write-side call changes nothing on disk
// and reports success to Pebble. Writes are dropped, syncs and renames and
// removals do nothing, and new files live only in memory (their names are
// never created). Reads pass through. The files on disk are then exactly
// as the failing call left them, which is a state a crash at that call
// could have left: Pebble's recovery already handles it (a torn WAL or
// MANIFEST tail, which opencheck.go and walcheck.go accept too; tables
// written but not yet named in the MANIFEST are deleted as obsolete).
// Since no file is removed after the freeze, no WAL is deleted on the
// strength of a flush that never reached the disk, so every write that
// reached the WAL before the failure is still there at the next Open.
//
// The engine (db.go) checks failed() before and after each write: a write
// that entered Pebble before the freeze but returns after it gets the error
// too, so no write is acknowledged whose WAL record might have been dropped.
// A write acknowledged before the freeze is in the files: a synced one on
// disk, an unsynced one in the OS, since the engine acknowledges it only
// once its WAL record was written (walsync.go).
type failFS struct {
	vfs.FS
	failure atomic.Pointer[writeFailure]
}

func newFailFS(inner vfs.FS) *failFS { return &failFS{FS: inner} }

// failed returns the first write failure, or nil. It is one atomic load.
func (f *failFS) failed() error {
	if w := f.failure.Load(); w != nil {
		return w
	}
	return nil
}

func (f *failFS) frozen() bool { return f.failure.Load() != nil }

// fail records err as the failure of op on path, unless one is recorded.
func (f *failFS) fail(op, path string, err error) {
	f.failure.CompareAndSwap(nil, &writeFailure{op: op, path: path, err: err})
}

// writeFailure is the first failed write. Its text is RocksDB's for the same
// failure (IOStatus made from errno in env/io_posix.h): "IO error: " then,
// for ENOSPC, RocksDB's NoSpace subcode "No space left on device: ", then
// the context, the path and strerror with a capital first letter, e.g.
// "IO error: No space left on device: While appending to file:
// /db/000004.log: No space left on device". Unwrap gives the cause, so
// errors.Is(err, syscall.ENOSPC) holds.
type writeFailure struct {
	op, path string
	err      error
}

func (w *writeFailure) Error() string {
	var b strings.Builder
	b.WriteString("IO error: ")
	var errno syscall.Errno
	isErrno := errors.As(w.err, &errno)
	if isErrno && errno == syscall.ENOSPC {
		b.WriteString("No space left on device: ")
	}
	b.WriteString(w.op + ": " + w.path + ": ")
	if !isErrno {
		b.WriteString(w.err.Error())
		return b.String()
	}
	text := errno.Error()
	if text != "" {
		b.WriteString(strings.ToUpper(text[:1]))
		b.WriteString(text[1:])
	}
	return b.String()
}

func (w *writeFailure) Unwrap() error { return w.err }

// RocksDB's context words for each write-side call.
const (
	opAppend = "While appending to file"
	opSync   = "While fsync"
	opClose  = "While closing file after writing"
	opOpen   = "While open a file for appending"
	opRename = "While renaming a file to"
	opLink   = "While link a file to"
	opMkdir  = "While mkdir"
	opRemove = "While deleting file"
)

// diskFull reports whether err says the disk cannot take more writes:
// full, over quota, failing or read-only. Other errors of namespace calls
// (a missing file to remove, a directory that exists) are Pebble's to see.
func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) ||
		errors.Is(err, syscall.EIO) || errors.Is(err, syscall.EROFS)
}

// Create makes name, or after the freeze an in-memory file.
func (f *failFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	if f.frozen() {
		return &droppedFile{name: name}, nil
	}
	file, err := f.FS.Create(name, category)
	return f.wrapWritable(file, name, err)
}

// ReuseForWrite renames oldname to newname for overwriting (Pebble recycles
// WAL files this way), or after the freeze gives an in-memory file.
func (f *failFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	if f.frozen() {
		return &droppedFile{name: newname}, nil
	}
	file, err := f.FS.ReuseForWrite(oldname, newname, category)
	return f.wrapWritable(file, newname, err)
}

// OpenReadWrite opens name for writing, or after the freeze gives an
// in-memory file.
func (f *failFS) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	if f.frozen() {
		return &droppedFile{name: name}, nil
	}
	file, err := f.FS.OpenReadWrite(name, category, opts...)
	return f.wrapWritable(file, name, err)
}

func (f *failFS) wrapWritable(file vfs.File, name string, err error) (vfs.File, error) {
	if err != nil {
		if diskFull(err) {
			f.fail(opOpen, name, err)
			return &droppedFile{name: name}, nil
		}
		return nil, err
	}
	return &failFile{File: file, fs: f, name: name}, nil
}

// OpenDir opens a directory; Pebble syncs it after creating files.
func (f *failFS) OpenDir(name string) (vfs.File, error) {
	file, err := f.FS.OpenDir(name)
	if err != nil {
		return nil, err
	}
	return &failFile{File: file, fs: f, name: name}, nil
}

// namespace runs a call that changes directory entries: nothing after the
// freeze, and a full-disk error becomes the freeze.
func (f *failFS) namespace(op, path string, call func() error) error {
	if f.frozen() {
		return nil
	}
	err := call()
	if err != nil && diskFull(err) {
		f.fail(op, path, err)
		return nil
	}
	return err
}

func (f *failFS) Link(oldname, newname string) error {
	return f.namespace(opLink+" "+newname, oldname, func() error { return f.FS.Link(oldname, newname) })
}

func (f *failFS) Rename(oldname, newname string) error {
	return f.namespace(opRename+" "+newname, oldname, func() error { return f.FS.Rename(oldname, newname) })
}

func (f *failFS) Remove(name string) error {
	return f.namespace(opRemove, name, func() error { return f.FS.Remove(name) })
}

// RemoveAll is refused: the engine deletes only files it names one by one
// (Destroy, Pebble's obsolete-file deletion through Remove). Pebble asks for
// a recursive removal only from a failed Checkpoint, to remove the staging
// directory it made; refused, that directory stays for whoever asked for
// the checkpoint to look at (the backup benchmark refuses to run over it).
func (f *failFS) RemoveAll(name string) error {
	return fmt.Errorf("Not implemented: recursive removal of %s refused: the pebble engine deletes only files it names", name)
}

func (f *failFS) MkdirAll(dir string, perm os.FileMode) error {
	return f.namespace(opMkdir, dir, func() error { return f.FS.MkdirAll(dir, perm) })
}

// Unwrap gives the file system below, as vfs.FS asks.
func (f *failFS) Unwrap() vfs.FS { return f.FS }

// failFile is a file opened for writing (or a directory) through failFS.
// Fd passes through: Pebble uses it only for read-ahead advice and to know
// whether a file is an OS file; every write goes through the methods below.
type failFile struct {
	vfs.File
	fs   *failFS
	name string
}

// result records err as the failure of op, and hides it from Pebble.
func (f *failFile) result(op string, err error) error {
	if err != nil {
		f.fs.fail(op, f.name, err)
	}
	return nil
}

func (f *failFile) Write(p []byte) (int, error) {
	if f.fs.frozen() {
		return len(p), nil
	}
	_, err := f.File.Write(p)
	return len(p), f.result(opAppend, err)
}

func (f *failFile) WriteAt(p []byte, off int64) (int, error) {
	if f.fs.frozen() {
		return len(p), nil
	}
	_, err := f.File.WriteAt(p, off)
	return len(p), f.result(opAppend, err)
}

func (f *failFile) Sync() error {
	if f.fs.frozen() {
		return nil
	}
	return f.result(opSync, f.File.Sync())
}

func (f *failFile) SyncData() error {
	if f.fs.frozen() {
		return nil
	}
	return f.result(opSync, f.File.SyncData())
}

func (f *failFile) SyncTo(length int64) (bool, error) {
	if f.fs.frozen() {
		return true, nil
	}
	full, err := f.File.SyncTo(length)
	return full, f.result(opSync, err)
}

// Preallocate passes its error on: Pebble ignores it (a file that could not
// be preallocated is written all the same), and the write that then finds
// the disk full is the failure.
func (f *failFile) Preallocate(offset, length int64) error {
	if f.fs.frozen() {
		return nil
	}
	return f.File.Preallocate(offset, length)
}

// Close closes the file always (so no descriptor leaks) and reports an
// error only through the freeze.
func (f *failFile) Close() error {
	err := f.File.Close()
	if f.fs.frozen() {
		return nil
	}
	return f.result(opClose, err)
}

// droppedFile is a file created after the freeze: it has no name on disk,
// takes any write and keeps none. Reading it fails with errDropped.
type droppedFile struct {
	name string
	size atomic.Int64
}

// errDropped is what reading a file created after the freeze returns.
var errDropped = errors.New("pebble: file written after a write failure was not stored")

func (d *droppedFile) Write(p []byte) (int, error) {
	d.size.Add(int64(len(p)))
	return len(p), nil
}

func (d *droppedFile) WriteAt(p []byte, off int64) (int, error) {
	for {
		old := d.size.Load()
		end := max(old, off+int64(len(p)))
		if d.size.CompareAndSwap(old, end) {
			return len(p), nil
		}
	}
}

func (d *droppedFile) Read([]byte) (int, error)          { return 0, errDropped }
func (d *droppedFile) ReadAt([]byte, int64) (int, error) { return 0, errDropped }
func (d *droppedFile) Close() error                      { return nil }
func (d *droppedFile) Preallocate(int64, int64) error    { return nil }
func (d *droppedFile) Sync() error                       { return nil }
func (d *droppedFile) SyncData() error                   { return nil }
func (d *droppedFile) SyncTo(int64) (bool, error)        { return true, nil }
func (d *droppedFile) Prefetch(int64, int64) error       { return nil }
func (d *droppedFile) Fd() uintptr                       { return vfs.InvalidFd }
func (d *droppedFile) Stat() (vfs.FileInfo, error)       { return droppedInfo{d}, nil }
func (droppedInfo) Mode() fs.FileMode                    { return 0o644 }
func (droppedInfo) ModTime() time.Time                   { return time.Time{} }
func (droppedInfo) IsDir() bool                          { return false }
func (droppedInfo) Sys() any                             { return nil }
func (droppedInfo) DeviceID() vfs.DeviceID               { return vfs.DeviceID{} }
func (i droppedInfo) Name() string                       { return i.d.name }
func (i droppedInfo) Size() int64                        { return i.d.size.Load() }

// droppedInfo is a droppedFile's vfs.FileInfo.
type droppedInfo struct{ d *droppedFile }

var (
	_ vfs.FS   = (*failFS)(nil)
	_ vfs.File = (*failFile)(nil)
	_ vfs.File = (*droppedFile)(nil)
)
