package lsm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/blob"
	"github.com/godbbench/godbbench/internal/invariants"
)

// Blob files (key-value separation, RocksDB's integrated BlobDB design):
// flushes and compactions may write values of at least min_blob_size to
// blob files (package blob's format, named <n>.blob) and store a blob
// index (blob_index.go) in the table instead. The MANIFEST records each
// blob file when it is added (number, size, record count, blob bytes,
// checksum) and the garbage compactions leave in it (blob_edit.go); a
// version lists the live blob files with their garbage so far. A blob file
// leaves the version when all of its blob bytes are garbage, and is deleted
// once no version lists it, as a table is: always after the durable
// MANIFEST edit.

func blobName(dir string, num uint64) string {
	return filepath.Join(dir, fmt.Sprintf("%06d.blob", num))
}

// blobFileMeta describes one blob file. It is shared by every version that
// lists the file; refs counts those versions.
type blobFileMeta struct {
	num, size        uint64
	count, blobBytes uint64
	checksum         uint32 // CRC-32C of the whole file
	refs             atomic.Int32
	reader           atomic.Pointer[openBlob]
	openMu           sync.Mutex
}

// openBlob is a blob file open for reads.
type openBlob struct {
	f *os.File
	r *blob.Reader
	// db counts the close of f (fs_counted.go).
	db *DB
}

// blobFileState is a blob file's entry in one version: the file and the
// garbage recorded for it up to that version.
type blobFileState struct {
	meta                       *blobFileMeta
	garbageCount, garbageBytes uint64
}

// blobRegistry maps the numbers of the blob files some version still lists
// to their metadata, for reads, which name blob files by number. It is
// copied on write (a blob file added or deleted) and read without a lock.
type blobRegistry struct {
	mu    sync.Mutex
	files atomic.Pointer[map[uint64]*blobFileMeta]
}

func (r *blobRegistry) lookup(num uint64) *blobFileMeta {
	if m := r.files.Load(); m != nil {
		return (*m)[num]
	}
	return nil
}

// update copies the map, applies fn to the copy and publishes it.
func (r *blobRegistry) update(fn func(m map[uint64]*blobFileMeta)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := map[uint64]*blobFileMeta{}
	if old := r.files.Load(); old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	fn(m)
	r.files.Store(&m)
}

// refBlobs takes v's references on its blob files, registering files
// referenced for the first time.
func (db *DB) refBlobs(v *version) {
	var added []*blobFileMeta
	for _, b := range v.blobs {
		if b.meta.refs.Add(1) == 1 {
			added = append(added, b.meta)
		}
	}
	if len(added) > 0 {
		db.blobs.update(func(m map[uint64]*blobFileMeta) {
			for _, f := range added {
				m[f.num] = f
			}
		})
	}
}

// unrefBlobs drops a dead version's references, closing, unregistering and
// deleting the blob files no version lists any more.
func (db *DB) unrefBlobs(v *version) {
	var dead []*blobFileMeta
	for _, b := range v.blobs {
		n := b.meta.refs.Add(-1)
		if invariants.Enabled {
			checkUnref("blob file", b.meta.num, n)
		}
		if n == 0 {
			dead = append(dead, b.meta)
		}
	}
	if len(dead) == 0 {
		return
	}
	db.blobs.update(func(m map[uint64]*blobFileMeta) {
		for _, f := range dead {
			delete(m, f.num)
		}
	})
	for _, f := range dead {
		f.close()
		db.removeLocked(blobName(db.dir, f.num))
	}
}

func (f *blobFileMeta) close() {
	if o := f.reader.Swap(nil); o != nil {
		o.db.closeRead(o.f)
	}
}

// blobReader returns the open reader of f, opening it on first use.
func (db *DB) blobReader(f *blobFileMeta) (*blob.Reader, error) {
	if o := f.reader.Load(); o != nil {
		return o.r, nil
	}
	f.openMu.Lock()
	defer f.openMu.Unlock()
	if o := f.reader.Load(); o != nil {
		return o.r, nil
	}
	name := blobName(db.dir, f.num)
	file, err := db.fs.OpenReadOnly(name)
	if err != nil {
		if errors.Is(err, errNotExist) {
			return nil, fmt.Errorf("%w: blob file %s is missing: %w", ErrCorruption, filepath.Base(name), err)
		}
		return nil, fmt.Errorf("lsm: open blob file: %w", err)
	}
	r, err := blob.Open(file, int64(f.size), filepath.Base(name))
	if err != nil {
		db.closeRead(file)
		return nil, corruptBlob(err)
	}
	f.reader.Store(&openBlob{f: file, r: r, db: db})
	return r, nil
}

// corruptBlob makes a blob file's corruption error an lsm ErrCorruption too.
func corruptBlob(err error) error {
	if errors.Is(err, blob.ErrCorruption) && !errors.Is(err, ErrCorruption) {
		return fmt.Errorf("%w: %w", ErrCorruption, err)
	}
	return err
}

// readBlob returns the value the encoded blob index idx of key names. The
// value lives in buf until its next use.
func (db *DB) readBlob(key, idx []byte, buf *blob.Buffer) ([]byte, error) {
	x, err := decodeBlobIndex(idx)
	if err != nil {
		return nil, err
	}
	f := db.blobs.lookup(x.fileNum)
	if f == nil {
		return nil, fmt.Errorf("%w: blob index names blob file %s, which no version lists", ErrCorruption, filepath.Base(blobName(db.dir, x.fileNum)))
	}
	r, err := db.blobReader(f)
	if err != nil {
		return nil, err
	}
	v, err := r.Read(key, x.offset, x.size, x.compression, buf)
	if err != nil {
		return nil, corruptBlob(err)
	}
	return v, nil
}

// closeBlobReaders closes the readers of v's blob files without deleting
// them (DB.Close).
func closeBlobReaders(v *version) {
	for _, b := range v.blobs {
		b.meta.close()
	}
}
