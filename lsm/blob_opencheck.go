package lsm

import (
	"fmt"
	"path/filepath"
)

// Open's rules for blob files (opencheck.go has those of tables):
//
//   - Every blob file the recovered version lists must exist with the size
//     the MANIFEST records, else Open fails with ErrCorruption naming the
//     file, having deleted nothing.
//   - A blob file the version does not list was written by a flush or
//     compaction whose MANIFEST edit was never written (only tables of the
//     same edit can point into it), or was all garbage and its deletion was
//     interrupted. It is deleted only when every table the version does
//     not list was proved obsolete too; a table left in place (it does not
//     decode) keeps every unlisted blob file in place with it.

// keepBlobFiles is a key of obsoleteTables' map that no file has (file
// numbers start at 1): set, it says an unlisted table was left in place.
const keepBlobFiles = 0

// verifyBlobFiles checks that every blob file of the current version exists
// with its recorded size: one stat per file.
func (db *DB) verifyBlobFiles(manifest string) error {
	for num, b := range db.def.current.blobs {
		name := blobName(db.dir, num)
		f, err := db.fs.OpenReadOnly(name)
		if err != nil {
			return fmt.Errorf("%w: %s lists blob file %s, which cannot be opened: %w", ErrCorruption, manifest, filepath.Base(name), err)
		}
		st, err := f.Stat()
		db.closeRead(f)
		if err != nil {
			return fmt.Errorf("lsm: stat %s: %w", name, err)
		}
		if uint64(st.Size()) != b.meta.size {
			return fmt.Errorf("%w: blob file %s is %d bytes, but %s records %d", ErrCorruption, filepath.Base(name), st.Size(), manifest, b.meta.size)
		}
	}
	return nil
}

// obsoleteBlobFiles adds to obsolete the blob files in the DB directory the
// current version does not list, unless obsolete[keepBlobFiles] says an
// unlisted table stays (see above).
func (db *DB) obsoleteBlobFiles(f dbFiles, obsolete map[uint64]bool) {
	keep := obsolete[keepBlobFiles]
	delete(obsolete, keepBlobFiles)
	if keep {
		return
	}
	for _, n := range f.dbNames {
		if t, num := parseFileName(n); t == fileBlob {
			if _, live := db.def.current.blobs[num]; !live {
				obsolete[num] = true
			}
		}
	}
}
