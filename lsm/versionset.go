package lsm

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/godbbench/godbbench/lsm/wal"
)

// versionSet owns the MANIFEST and installs the versions of the families
// (family.go). All methods run with DB.mu held.
type versionSet struct {
	db          *DB
	nextFileNum atomic.Uint64 // allocated without DB.mu by table writers
	lastSeq     uint64        // last sequence recorded in the MANIFEST
	versionNum  uint64

	manifestNum  uint64
	manifestFile WritableFile
	manifest     *wal.Writer
	manifestBuf  []byte
	manifestBusy bool // a logAndApply is writing the MANIFEST
	// manifestErr is the first failed MANIFEST write or sync; every later
	// edit fails with it. After a failed sync the record is in the file,
	// so an edit appended and synced after it would make it durable: a
	// retried CreateColumnFamily would then record the same family twice.
	manifestErr error

	// families are the column families besides the default
	// (familyset.go).
	families familySet

	// unfinishedFlushes are the flushes the replayed MANIFEST records as
	// begun and not ended, by table number (pendingflush.go); only Open
	// reads them.
	unfinishedFlushes map[uint64]pendingFlush
}

func (vs *versionSet) newFileNum() uint64 { return vs.nextFileNum.Add(1) - 1 }

// markFileNumUsed makes sure num is never handed out again.
func (vs *versionSet) markFileNumUsed(num uint64) {
	for {
		cur := vs.nextFileNum.Load()
		if cur > num || vs.nextFileNum.CompareAndSwap(cur, num+1) {
			return
		}
	}
}

// install makes v the current version of family f, taking a reference on
// each of its files.
func (vs *versionSet) install(f *family, v *version) {
	vs.versionNum++
	v.num = vs.versionNum
	v.release = vs.db.releaseVersion
	for level, files := range v.levels {
		for _, f := range files {
			f.refs.Add(1)
			f.inL0.Store(level == 0)
		}
	}
	vs.db.refBlobs(v)
	v.ref()
	old := f.current
	f.current = v
	if old != nil {
		old.unref()
	}
}

// recover replays the MANIFEST named by CURRENT. found is false for a new DB
// (no CURRENT). names lists the DB directory, to recognise another engine's
// MANIFEST. A torn last record ends the MANIFEST, as in RocksDB (the edit
// was never acknowledged); any other damage, a MANIFEST that CURRENT names
// but that is missing, or one that does not decode is an error naming the
// file.
func (vs *versionSet) recover(numLevels int, names []string) (found bool, err error) {
	fs, dir := vs.db.fs, vs.db.dir
	cur, err := fs.ReadFile(filepath.Join(dir, currentName))
	if err != nil {
		if errors.Is(err, errNotExist) {
			return false, nil
		}
		return false, fmt.Errorf("lsm: read CURRENT: %w", err)
	}
	name := strings.TrimSuffix(string(cur), "\n")
	typ, num := parseFileName(name)
	if typ != fileManifest || !strings.HasSuffix(string(cur), "\n") {
		return false, fmt.Errorf("%w: CURRENT names %q", ErrCorruptManifest, name)
	}
	data, err := fs.ReadFile(filepath.Join(dir, name))
	if err != nil {
		if errors.Is(err, errNotExist) {
			return false, fmt.Errorf("%w: CURRENT names %s, which is missing: %w", ErrCorruption, name, err)
		}
		return false, fmt.Errorf("lsm: read %s: %w", name, err)
	}
	r := wal.NewReader(data)
	var v *version
	var haveNext bool
	for first := true; ; first = false {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return false, fmt.Errorf("%w: %s: %w", ErrCorruptManifest, name, err)
		}
		e, err := decodeEdit(rec)
		if err != nil {
			if first {
				if ferr := foreignManifest(fs, dir, name, rec, names); ferr != nil {
					return false, ferr
				}
			}
			return false, fmt.Errorf("%s at offset %d: %w", name, r.Offset(), err)
		}
		if e.hasNextFileNum {
			vs.nextFileNum.Store(e.nextFileNum)
			haveNext = true
		}
		if e.hasLastSeq {
			vs.lastSeq = e.lastSeq
		}
		if err := vs.families.replay(e, numLevels); err != nil {
			return false, fmt.Errorf("%s: %w", name, err)
		}
		// A flush's begin edit is the default family's; its end is in the
		// flushed family's edit.
		vs.trackFlushes(e)
		if e.family != 0 {
			continue
		}
		if e.hasLogNumber {
			// Log numbers only grow; a lower one (which recoveries
			// wrote before commitWAL kept each family's) is ignored, as
			// RocksDB ignores it.
			vs.db.def.logNumber = max(vs.db.def.logNumber, e.logNumber)
		}
		if v, err = v.apply(e, max(numLevels, maxLevelIn(e, v))); err != nil {
			return false, fmt.Errorf("%s: %w", name, err)
		}
	}
	if !haveNext {
		return false, fmt.Errorf("%w: %s has no next-file-number record", ErrCorruptManifest, name)
	}
	if err := vs.families.checkLevels(numLevels); err != nil {
		return false, fmt.Errorf("%s: %w", name, err)
	}
	if v, err = v.apply(&versionEdit{}, numLevels); err != nil {
		return false, err
	}
	vs.manifestNum = num
	vs.install(vs.db.def, v)
	for _, f := range vs.families.live {
		// The replayed versions take their references now.
		replayed := f.current
		f.current = nil
		vs.install(f, replayed)
	}
	vs.markFileNumUsed(num)
	return true, nil
}

// maxLevelIn is the level count needed to hold v and e while replaying, so
// a DB written with more levels replays before the final num_levels check.
func maxLevelIn(e *versionEdit, v *version) int {
	n := 0
	if v != nil {
		n = len(v.levels)
	}
	for _, a := range e.added {
		n = max(n, a.level+1)
	}
	for _, d := range e.deleted {
		n = max(n, d.level+1)
	}
	return n
}

// createManifest starts a new MANIFEST holding a snapshot of the current
// state and points CURRENT at it (write a temp file, fsync, rename, fsync the
// directory).
func (vs *versionSet) createManifest() error {
	fs, dir := vs.db.fs, vs.db.dir
	num := vs.newFileNum()
	f, err := fs.Create(filepath.Join(dir, manifestName(num)))
	if err != nil {
		return fmt.Errorf("lsm: create MANIFEST: %w", err)
	}
	w := wal.NewWriter(f)
	snap := &versionEdit{}
	snap.setLogNumber(vs.db.def.logNumber)
	snap.setNextFileNum(vs.nextFileNum.Load())
	snap.setLastSeq(vs.lastSeq)
	if vs.db.def.current != nil {
		for level, files := range vs.db.def.current.levels {
			for _, m := range files {
				snap.added = append(snap.added, newFileEntry{level: level, meta: m})
			}
		}
		vs.db.def.current.snapshotBlobs(snap)
	}
	families := vs.families.snapshot(snap)
	w.AddRecord(snap.encode(nil))
	for _, e := range families {
		w.AddRecord(e.encode(nil))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("lsm: write MANIFEST: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("lsm: sync MANIFEST: %w", err)
	}
	if err := setCurrent(fs, dir, num); err != nil {
		f.Close()
		return err
	}
	if vs.manifestFile != nil {
		vs.manifestFile.Close()
	}
	vs.manifestNum, vs.manifestFile, vs.manifest = num, f, w
	return nil
}

func setCurrent(fs FS, dir string, num uint64) error {
	tmp := filepath.Join(dir, fmt.Sprintf("%06d.dbtmp", num))
	f, err := fs.Create(tmp)
	if err != nil {
		return fmt.Errorf("lsm: create CURRENT: %w", err)
	}
	if _, err = io.WriteString(f, manifestName(num)+"\n"); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fs.Rename(tmp, filepath.Join(dir, currentName))
	}
	if err == nil {
		err = fs.SyncDir(dir)
	}
	if err != nil {
		fs.Remove(tmp)
		return fmt.Errorf("lsm: install CURRENT: %w", err)
	}
	return nil
}

// logAndApply records e in the MANIFEST (synced) and installs the resulting
// version, unless e only begins a flush. When e adds tables, the DB directory is fsynced first, so a
// crash cannot keep the edit and lose the tables' directory entries. It fills in the next file number and last sequence. DB.mu is held
// on entry and exit but released during the write and fsync (a few ms), so
// commits are not blocked by it; edits are serialized by manifestBusy, so
// the current version cannot change underneath.
func (vs *versionSet) logAndApply(e *versionEdit) error {
	db := vs.db
	for vs.manifestBusy {
		db.bgCond.Wait()
	}
	vs.manifestBusy = true
	defer func() {
		vs.manifestBusy = false
		db.bgCond.Broadcast()
	}()
	if vs.manifestErr != nil {
		return vs.manifestErr
	}
	// A flush's begin edit changes no version (pendingflush.go).
	beginOnly := len(e.flushBegun) > 0 && len(e.added) == 0 && len(e.deleted) == 0 && !e.hasLogNumber
	f := db.familyByID(e.family)
	if f == nil && !e.addFamily {
		return fmt.Errorf("lsm: edit of column family %d, which is not open", e.family)
	}
	var nv *version
	var err error
	if !beginOnly && !e.addFamily {
		if nv, err = f.current.apply(e, vs.db.numLevels); err != nil {
			return err
		}
	}
	e.setNextFileNum(vs.nextFileNum.Load())
	if e.hasLastSeq {
		vs.lastSeq = max(vs.lastSeq, e.lastSeq)
	}
	e.setLastSeq(vs.lastSeq)
	vs.manifestBuf = e.encode(vs.manifestBuf[:0])
	db.mu.Unlock()
	// The MANIFEST writer is only used under manifestBusy.
	if len(e.added) > 0 || len(e.blobAdded) > 0 {
		// The new tables' and blob files' directory entries must be durable before the
		// edit that names them.
		if err = db.fs.SyncDir(db.dir); err != nil {
			err = fmt.Errorf("lsm: sync DB dir: %w", err)
		}
	}
	appended := err == nil
	if appended {
		vs.manifest.AddRecord(vs.manifestBuf)
		if err = vs.manifest.Flush(); err != nil {
			err = fmt.Errorf("lsm: write MANIFEST: %w", err)
		} else if err = vs.manifestFile.Sync(); err != nil {
			err = fmt.Errorf("lsm: sync MANIFEST: %w", err)
		}
	}
	db.mu.Lock()
	if err != nil {
		if appended {
			vs.manifestErr = err
		}
		return err
	}
	if e.addFamily {
		return vs.addFamily(e)
	}
	if e.hasLogNumber {
		f.logNumber = max(f.logNumber, e.logNumber)
	}
	if nv != nil {
		vs.install(f, nv)
	}
	return nil
}
