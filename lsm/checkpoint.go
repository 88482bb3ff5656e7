package lsm

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/godbbench/godbbench/internal/osfile"
	"github.com/godbbench/godbbench/lsm/wal"
)

// Checkpoint writes a consistent copy of the DB into dir, which must not
// exist yet, as RocksDB's Checkpoint::CreateCheckpoint does: a DB that
// opens with exactly the writes acknowledged before the call. It flushes
// the memtables first (so no WAL is needed), then, holding a reference on
// the current version so that no table of it is deleted meanwhile:
//
//   - every table and blob file of the version is hard-linked into dir, or
//     copied where a link is impossible (another file system, a DB on a
//     non-OS FS);
//   - a new MANIFEST in dir holds one edit, the version as a snapshot (its
//     log number, next file number, last sequence, tables and blob files
//     with their garbage), and CURRENT
//     names it;
//   - the WAL the snapshot's log number names is created empty in dir
//     (writes after the flush are not in the copy, and the MANIFEST's log
//     number must name a WAL that exists), so the copy opens with its WAL
//     in its own directory;
//   - the newest OPTIONS-<n> file of the DB directory is copied.
//
// Writes that arrive during the call may or may not be in the copy. The
// files are synced, dir is synced, and dir and every ancestor the call
// created are synced into their parents before Checkpoint returns
// (dbdirs.go); on error, dir is left for the caller to remove.
func (db *DB) Checkpoint(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("Invalid argument: Directory exists")
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("IO error: %v", err)
	}
	if err := db.Flush(); err != nil {
		return err
	}
	db.mu.Lock()
	if db.mu.closed {
		db.mu.Unlock()
		return errors.New("lsm: checkpoint of a closed DB")
	}
	if len(db.mu.vs.families.live) > 0 {
		db.mu.Unlock()
		return errors.New("Not implemented: checkpoint of a DB with column families besides the default")
	}
	vs := &db.mu.vs
	v := vs.db.def.current
	v.ref()
	snap := &versionEdit{}
	snap.setLogNumber(vs.db.def.logNumber)
	manifestNum := vs.nextFileNum.Load()
	snap.setNextFileNum(manifestNum + 1)
	snap.setLastSeq(vs.lastSeq)
	for level, files := range v.levels {
		for _, m := range files {
			snap.added = append(snap.added, newFileEntry{level: level, meta: m})
		}
	}
	v.snapshotBlobs(snap)
	db.mu.Unlock()
	defer v.unref()

	fs := db.fs
	if err := osfile.MkdirAllDurable(fs, dir); err != nil {
		return fmt.Errorf("lsm: checkpoint: %w", err)
	}
	for _, files := range v.levels {
		for _, m := range files {
			if err := db.linkOrCopy(tableName(db.dir, m.num), tableName(dir, m.num)); err != nil {
				return err
			}
		}
	}
	for num := range v.blobs {
		if err := db.linkOrCopy(blobName(db.dir, num), blobName(dir, num)); err != nil {
			return err
		}
	}
	if err := writeEmptyWAL(fs, dir, snap.logNumber); err != nil {
		return err
	}
	if err := writeSnapshotManifest(fs, dir, manifestNum, snap); err != nil {
		return err
	}
	if opt := newestOptionsFile(fs, db.dir); opt != "" {
		if err := db.copyFile(filepath.Join(db.dir, opt), filepath.Join(dir, opt)); err != nil {
			return err
		}
	}
	if err := setCurrent(fs, dir, manifestNum); err != nil {
		return err
	}
	return fs.SyncDir(dir)
}

// writeEmptyWAL creates WAL num in dir, empty and synced (num 0: none).
func writeEmptyWAL(fs FS, dir string, num uint64) error {
	if num == 0 {
		return nil
	}
	f, err := fs.Create(walName(dir, num))
	if err == nil {
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("lsm: checkpoint WAL: %w", err)
	}
	return nil
}

// writeSnapshotManifest writes MANIFEST-<num> in dir holding snap, synced.
func writeSnapshotManifest(fs FS, dir string, num uint64, snap *versionEdit) error {
	f, err := fs.Create(filepath.Join(dir, manifestName(num)))
	if err != nil {
		return fmt.Errorf("lsm: checkpoint MANIFEST: %w", err)
	}
	w := wal.NewWriter(f)
	w.AddRecord(snap.encode(nil))
	err = w.Flush()
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("lsm: checkpoint MANIFEST: %w", err)
	}
	return nil
}

// newestOptionsFile is the name of the OPTIONS-<n> file of dir with the
// highest n, or "".
func newestOptionsFile(fs FS, dir string) string {
	names, err := fs.List(dir)
	if err != nil {
		return ""
	}
	var opts []string
	for _, n := range names {
		if strings.HasPrefix(n, "OPTIONS-") && !strings.HasSuffix(n, ".dbtmp") {
			opts = append(opts, n)
		}
	}
	if len(opts) == 0 {
		return ""
	}
	// OPTIONS-<n> with n zero-padded to six digits sorts by number.
	sort.Slice(opts, func(i, j int) bool {
		if len(opts[i]) != len(opts[j]) {
			return len(opts[i]) < len(opts[j])
		}
		return opts[i] < opts[j]
	})
	return opts[len(opts)-1]
}

// linkOrCopy hard-links from to to on the OS file system (counted or not:
// --report_file_operations wraps it), and copies it where a link cannot
// be made.
func (db *DB) linkOrCopy(from, to string) error {
	fs := db.fs
	if c, ok := fs.(countingFS); ok {
		fs = c.FS
	}
	if fs == DefaultFS {
		if err := os.Link(from, to); err == nil {
			return nil
		}
	}
	return db.copyFile(from, to)
}

// copyFile copies from to to through the DB's file system, synced.
func (db *DB) copyFile(from, to string) error {
	src, err := db.fs.OpenReadOnly(from)
	if err != nil {
		return fmt.Errorf("lsm: checkpoint: %w", err)
	}
	defer db.closeRead(src)
	dst, err := db.fs.Create(to)
	if err != nil {
		return fmt.Errorf("lsm: checkpoint: %w", err)
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("lsm: checkpoint %s: %w", to, err)
	}
	return nil
}
