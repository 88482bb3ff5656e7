package pebble

import (
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/wal"
)

// walSyncFS is the layer of the engine's file system that makes an
// unsynced write (--sync=0) survive a process kill, as RocksDB's does:
// RocksDB hands every WAL record to the OS (write(2)) before it
// acknowledges the write, and a process kill loses nothing the OS holds.
//
// Pebble v2.1.7 acknowledges a NoSync write as soon as its record is in the
// WAL writer's in-process block buffer (record.LogWriter): the buffer is
// written to the file only when a 32 KiB block fills or a sync is asked
// for, so a kill loses up to a block of acknowledged writes. A write
// committed with pebble.Sync instead waits for the WAL writer's flush loop
// to write every buffered block and the partial one to the file and then to
// call the file's Sync. Pebble's group commit shares that one write and
// Sync among all the writers waiting at that moment.
//
// So the engine commits every write with pebble.Sync while the WAL is on
// (db.go), and this layer decides what the WAL file's Sync does: an fsync
// (fdatasync) while a write that asked for one (engine.WriteOptions.Sync)
// is in flight, nothing otherwise. An unsynced write is then acknowledged
// once its record is in the OS, not before, and costs no fsync. The
// accounting is sound for groups: a synced write is counted (durableBegin)
// before it enters Pebble and uncounted (durableEnd) only after Pebble
// returned, which is after the Sync that covered its record, so that Sync
// saw the count above zero; a Sync that runs while a synced write waits
// for a later group is merely an extra fsync.
//
// Only WAL files are affected: files Pebble creates (Create, ReuseForWrite)
// with its WAL write category ("pebble-wal") and a WAL's name (NNNNNN.log,
// or NNNNNN-III.log for a failover WAL; Pebble's failover marker file
// has the category but not the name). The MANIFEST, tables, OPTIONS, the
// marker files and every directory sync are untouched. SyncTo, which
// Pebble calls only for wal_bytes_per_sync's background range syncs, is
// passed through. A WAL's Close syncs the file first, as Pebble's own
// Close of a WAL did: Pebble closes a WAL before it creates the next one
// and relies on the closed one having a clean tail, so the only fsync an
// unsynced workload pays is one per memtable switch, as before.
type walSyncFS struct {
	vfs.FS
	// durableWrites counts the writes in flight that asked for a synced
	// WAL; while it is above zero a WAL Sync is real.
	durableWrites atomic.Int64
}

// walWriteCategory is the vfs.DiskWriteCategory Pebble creates WALs with
// (wal/standalone_manager.go, wal/failover_manager.go).
const walWriteCategory vfs.DiskWriteCategory = "pebble-wal"

// durableBegin counts a write that must not be acknowledged before its WAL
// record is synced; durableEnd uncounts it once Pebble has returned.
func (w *walSyncFS) durableBegin() { w.durableWrites.Add(1) }
func (w *walSyncFS) durableEnd()   { w.durableWrites.Add(-1) }

// Create creates name, wrapping it when it is a WAL.
func (w *walSyncFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := w.FS.Create(name, category)
	return w.wrap(f, name, category, err)
}

// ReuseForWrite recycles oldname as newname (Pebble recycles WALs this
// way), wrapping the result when it is a WAL.
func (w *walSyncFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := w.FS.ReuseForWrite(oldname, newname, category)
	return w.wrap(f, newname, category, err)
}

func (w *walSyncFS) wrap(f vfs.File, name string, category vfs.DiskWriteCategory, err error) (vfs.File, error) {
	if err != nil || category != walWriteCategory {
		return f, err
	}
	if _, _, ok := wal.ParseLogFilename(w.FS.PathBase(name)); !ok {
		return f, nil
	}
	return &walSyncFile{File: f, fs: w}, nil
}

// Unwrap gives the file system below, as vfs.FS asks.
func (w *walSyncFS) Unwrap() vfs.FS { return w.FS }

// walSyncFile is a WAL opened through walSyncFS.
type walSyncFile struct {
	vfs.File
	fs *walSyncFS
}

// Sync syncs the file only while a synced write is in flight.
func (f *walSyncFile) Sync() error {
	if f.fs.durableWrites.Load() > 0 {
		return f.File.Sync()
	}
	return nil
}

// SyncData is Sync without the metadata; Pebble's WAL writer reaches it
// through vfs.NewSyncingFile's Sync.
func (f *walSyncFile) SyncData() error {
	if f.fs.durableWrites.Load() > 0 {
		return f.File.SyncData()
	}
	return nil
}

// Close syncs the file's data and closes it; the file is closed even when
// the sync fails.
func (f *walSyncFile) Close() error {
	syncErr := f.File.SyncData()
	closeErr := f.File.Close()
	if syncErr != nil {
		return syncErr
	}
	return closeErr
}

var (
	_ vfs.FS   = (*walSyncFS)(nil)
	_ vfs.File = (*walSyncFile)(nil)
)
