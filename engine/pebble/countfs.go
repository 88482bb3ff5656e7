package pebble

import (
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/fileops"
)

// --report_file_operations: every DB the process opens with the option
// works on countingFS, which counts into fileops.Process what RocksDB's
// CountedFileSystem counts (package fileops), in Pebble's calls:
//
//   - opened: Create, Open, OpenReadWrite, ReuseForWrite, and OpenDir
//     (also a directory opened); closed: Close of any of them (of a
//     directory, also a directory closed). Lock and Link are not counted,
//     as RocksDB counts neither LockFile nor LinkFile.
//   - deleted: Remove and RemoveAll; renamed: Rename.
//   - Read and ReadAt are reads, Write and WriteAt appends.
//   - Sync() counts SyncData (fdatasync) and SyncTo (sync_file_range, as
//     RocksDB counts RangeSync), Fsync() a file's Sync (fsync), Dir
//     Fsync() a directory's Sync. Pebble's files have no Flush: their
//     writers buffer above the file, so Flush() stays 0.
//
// Files Pebble maps or reads outside the vfs.File calls are not counted.

// fileOperationsNotes say how Pebble's counts differ from RocksDB's.
var fileOperationsNotes = []engine.OptionNote{{Key: "report_file_operations", How: "counts Pebble's vfs.File calls (engine/pebble/countfs.go): its files have no Flush, a file's Sync is an fsync, SyncData and SyncTo are syncs"}}

var _ engine.FileOperationCounter = Opener{}

// FileOperations implements engine.FileOperationCounter with the
// process's counters.
func (Opener) FileOperations() string { return fileops.Process.Report() }

// countingFS is a vfs.FS whose file operations count into c.
type countingFS struct {
	vfs.FS
	c *fileops.Counters
}

// opened wraps f, just opened with err, and counts the open.
func (fs countingFS) opened(f vfs.File, err error, dir bool) (vfs.File, error) {
	if err != nil {
		return f, err
	}
	if dir {
		fs.c.DirOpened()
	} else {
		fs.c.Opens.Add(1)
	}
	return &countedFile{File: f, c: fs.c, dir: dir}, nil
}

func (fs countingFS) Create(name string, cat vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, cat)
	return fs.opened(f, err, false)
}

func (fs countingFS) Open(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.Open(name, opts...)
	return fs.opened(f, err, false)
}

func (fs countingFS) OpenReadWrite(name string, cat vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, cat, opts...)
	return fs.opened(f, err, false)
}

func (fs countingFS) ReuseForWrite(oldname, newname string, cat vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, cat)
	return fs.opened(f, err, false)
}

func (fs countingFS) OpenDir(name string) (vfs.File, error) {
	f, err := fs.FS.OpenDir(name)
	return fs.opened(f, err, true)
}

func (fs countingFS) Remove(name string) error {
	return fileops.OnSuccess(&fs.c.Deletes, fs.FS.Remove(name))
}

func (fs countingFS) RemoveAll(name string) error {
	return fileops.OnSuccess(&fs.c.Deletes, fs.FS.RemoveAll(name))
}

func (fs countingFS) Rename(oldname, newname string) error {
	return fileops.OnSuccess(&fs.c.Renames, fs.FS.Rename(oldname, newname))
}

// Unwrap gives the file system below, as vfs.FS asks.
func (fs countingFS) Unwrap() vfs.FS { return fs.FS }

// countedFile is a vfs.File whose operations count into c.
type countedFile struct {
	vfs.File
	c   *fileops.Counters
	dir bool
}

func (f *countedFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.c.Read(n, err == nil)
	return n, err
}

func (f *countedFile) ReadAt(p []byte, off int64) (int, error) {
	return fileops.ReaderAt{ReaderAt: f.File, Counts: f.c}.ReadAt(p, off)
}

func (f *countedFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.c.Append(n, err == nil)
	return n, err
}

func (f *countedFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	f.c.Append(n, err == nil)
	return n, err
}

func (f *countedFile) Sync() error {
	if f.dir {
		return fileops.OnSuccess(&f.c.DirFsyncs, f.File.Sync())
	}
	return fileops.OnSuccess(&f.c.Fsyncs, f.File.Sync())
}

func (f *countedFile) SyncData() error {
	return fileops.OnSuccess(&f.c.Syncs, f.File.SyncData())
}

func (f *countedFile) SyncTo(length int64) (bool, error) {
	full, err := f.File.SyncTo(length)
	fileops.OnSuccess(&f.c.Syncs, err)
	return full, err
}

func (f *countedFile) Close() error {
	err := f.File.Close()
	if err == nil && f.dir {
		f.c.DirClosed()
	} else if err == nil {
		f.c.Closes.Add(1)
	}
	return err
}
