package lsm

import (
	"errors"
	"io"
	"os"

	"github.com/godbbench/godbbench/internal/fileops"
)

// --report_file_operations (Config.FileOperations): the DB's file system
// is wrapped in countingFS, which counts into package fileops' counters
// what RocksDB's CountedFileSystem counts, in the DB's own calls:
//
//   - opened: Create, OpenReadOnly, ReadFile, and the O_DIRECT opens and
//     creates of direct I/O (not the O_DIRECT probe at open); closed: the Close of a file created, of a
//     table's reader (block format or rtable), and of the files read for a
//     check or a copy (closeRead). LOCK is not counted, as RocksDB does
//     not count LockFile; MkdirAll and List are not, as RocksDB counts
//     neither CreateDir nor GetChildren.
//   - deleted: Remove; renamed: Rename.
//   - ReadFile (CURRENT, a MANIFEST, a WAL at recovery) is one file opened,
//     one read of all its bytes and one close. A block-format table's
//     preads are reads (sst.ReaderOptions.FileOperations); a table or blob
//     file read through a mapping (mmap_read, rtable) is not read by any
//     call, so its reads are not counted, and blob files' preads are not
//     counted either.
//   - Every Write to a file created is an append with its bytes. The
//     mapped WAL (walmmap_linux.go) counts a Write as an append too, as
//     RocksDB counts an Append to its mmap file, though it is a copy into
//     the mapping: the extents it maps and unmaps as it grows are not
//     counted.
//   - A Sync is counted by what it does: fdatasync (a table or blob file
//     without use_fsync, the mapped WAL, whose msync goes with it) is a
//     Sync(), fsync (MANIFEST, CURRENT, a WAL written with write(2),
//     outputs under use_fsync) an Fsync(); the range syncs of
//     bytes_per_sync and wal_bytes_per_sync are not counted. Files are
//     written without a buffer above them, so there is no Flush().
//   - SyncDir opens the directory, fsyncs it and closes it: a directory
//     opened, a Dir Fsync(), a directory closed.

// countingFS is an FS whose operations count into c.
type countingFS struct {
	FS
	c *fileops.Counters
}

// countedFile is a file created through countingFS: its writes are
// appends, its syncs Sync() or, when fullSync, Fsync(), its Close a close.
type countedFile struct {
	WritableFile
	c        *fileops.Counters
	fullSync bool
}

func (fs countingFS) Create(name string) (WritableFile, error) {
	f, err := fs.FS.Create(name)
	if err != nil {
		return nil, err
	}
	fs.c.Opens.Add(1)
	_, plain := f.(*os.File) // *os.File's Sync is fsync
	return &countedFile{WritableFile: f, c: fs.c, fullSync: plain}, nil
}

func (fs countingFS) OpenReadOnly(name string) (*os.File, error) {
	f, err := fs.FS.OpenReadOnly(name)
	if err == nil {
		fs.c.Opens.Add(1)
	}
	return f, err
}

func (fs countingFS) ReadFile(name string) ([]byte, error) {
	b, err := fs.FS.ReadFile(name)
	if err != nil && errors.Is(err, os.ErrNotExist) {
		return b, err
	}
	fs.c.Opens.Add(1)
	fs.c.Read(len(b), err == nil)
	fs.c.Closes.Add(1)
	return b, err
}

func (fs countingFS) Rename(oldname, newname string) error {
	return fileops.OnSuccess(&fs.c.Renames, fs.FS.Rename(oldname, newname))
}

func (fs countingFS) Remove(name string) error {
	return fileops.OnSuccess(&fs.c.Deletes, fs.FS.Remove(name))
}

func (fs countingFS) SyncDir(dir string) error {
	err := fs.FS.SyncDir(dir)
	if err == nil {
		fs.c.DirOpened()
		fs.c.DirFsyncs.Add(1)
		fs.c.DirClosed()
	}
	return err
}

func (f *countedFile) Write(p []byte) (int, error) {
	n, err := f.WritableFile.Write(p)
	f.c.Append(n, err == nil)
	return n, err
}

func (f *countedFile) Sync() error {
	if f.fullSync {
		return fileops.OnSuccess(&f.c.Fsyncs, f.WritableFile.Sync())
	}
	return fileops.OnSuccess(&f.c.Syncs, f.WritableFile.Sync())
}

func (f *countedFile) Close() error {
	return fileops.OnSuccess(&f.c.Closes, f.WritableFile.Close())
}

// uncounted returns the file f wraps when f is counted, else f, and what
// puts a file made over it back under f's counter, whose syncs are then
// Fsync() when fullSync, else Sync(). A caller that needs the *os.File
// below (to map it, to sync it its own way) builds on the first and hands
// the result to the second.
func uncounted(f WritableFile) (WritableFile, func(over WritableFile, fullSync bool) WritableFile) {
	cf, ok := f.(*countedFile)
	if !ok {
		return f, func(over WritableFile, _ bool) WritableFile { return over }
	}
	return cf.WritableFile, func(over WritableFile, fullSync bool) WritableFile {
		cf.WritableFile, cf.fullSync = over, fullSync
		return cf
	}
}

// fileCounts returns the DB's file operation counters, nil when it does
// not count.
func (db *DB) fileCounts() *fileops.Counters {
	if fs, ok := db.fs.(countingFS); ok {
		return fs.c
	}
	return nil
}

// countCreated counts f, a file the DB created outside its FS (O_DIRECT),
// as countingFS.Create counts one, and returns it under the counter, its
// syncs Fsync() when fullSync; f itself when the DB does not count.
func (db *DB) countCreated(f WritableFile, fullSync bool) WritableFile {
	c := db.fileCounts()
	if c == nil {
		return f
	}
	c.Opens.Add(1)
	return &countedFile{WritableFile: f, c: c, fullSync: fullSync}
}

// countOpened counts a file the DB opened outside its FS (O_DIRECT) when
// err is nil, and returns err.
func (db *DB) countOpened(err error) error {
	if c := db.fileCounts(); c != nil && err == nil {
		c.Opens.Add(1)
	}
	return err
}

// closeRead closes f, a file the DB opened for reading (or a reader that
// owns one), and counts the close.
func (db *DB) closeRead(f io.Closer) error {
	err := f.Close()
	if c := db.fileCounts(); c != nil && err == nil {
		c.Closes.Add(1)
	}
	return err
}

// Close closes the table's reader, which closes its file: counted as a
// close when the DB counts (counts set).
func (t *openTable) Close() error {
	err := t.tableReader.Close()
	if t.counts != nil && err == nil {
		t.counts.Closes.Add(1)
	}
	return err
}
