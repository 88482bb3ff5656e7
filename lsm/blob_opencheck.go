package lsm

import (
	"fmt"
	"path/filepath"
	"slices"
)

// Open's rules for blob files (opencheck.go has those of tables):
//
//   - Every blob file a recovered version lists (the default family's or
//     another live family's) must exist with the size the MANIFEST records,
//     else Open fails with ErrCorruption naming the file, having deleted
//     nothing.
//   - A blob file no live family's version lists was written by a flush or
//     compaction whose MANIFEST edit was never written (only tables of the
//     same edit can point into it), or was all garbage and its deletion was
//     interrupted. It is deleted only when every table the version does
//     not list was proved obsolete too; a table left in place (it does not
//     decode) keeps every unlisted blob file in place with it.
//   - A DB whose versions list blob files is not opened for writing with
//     rtable tables below L0 (table_format=rtable): compactions would carry
//     its blob indexes into rtable tables, whose iterators do not resolve
//     them, so scans would pass over those keys (checkBlobsTableFormat).

// keepBlobFiles is a key of obsoleteTables' map that no file has (file
// numbers start at 1): set, it says an unlisted table was left in place.
const keepBlobFiles = 0

// verifyBlobFiles checks that every blob file of every family's current
// version exists with its recorded size: one stat per file.
func (db *DB) verifyBlobFiles(manifest string) error {
	for _, fam := range db.allFamilies() {
		if err := db.verifyFamilyBlobs(manifest, fam.current); err != nil {
			return err
		}
	}
	return nil
}

// verifyFamilyBlobs checks the blob files that v lists.
func (db *DB) verifyFamilyBlobs(manifest string, v *version) error {
	for num, b := range v.blobs {
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

// obsoleteBlobFiles adds to obsolete the blob files in the DB directory that
// no live family's current version lists, unless obsolete[keepBlobFiles]
// says an unlisted table stays (see above).
func (db *DB) obsoleteBlobFiles(f dbFiles, obsolete map[uint64]bool) {
	keep := obsolete[keepBlobFiles]
	delete(obsolete, keepBlobFiles)
	if keep {
		return
	}
	families := db.allFamilies()
	for _, n := range f.dbNames {
		if t, num := parseFileName(n); t == fileBlob && !listsBlob(families, num) {
			obsolete[num] = true
		}
	}
}

// listsBlob reports whether any of families' current versions lists blob
// file num.
func listsBlob(families []*family, num uint64) bool {
	for _, fam := range families {
		if _, ok := fam.current.blobs[num]; ok {
			return true
		}
	}
	return false
}

// checkBlobsTableFormat refuses an open for writing that would compact
// blob indexes into rtable tables (see above); recovery has deleted
// nothing yet. A read-only open compacts nothing and is not checked.
func (db *DB) checkBlobsTableFormat() error {
	if !slices.Contains(db.tableFormats, formatRTable) {
		return nil
	}
	for _, fam := range db.allFamilies() {
		if n := len(fam.current.blobs); n > 0 {
			return fmt.Errorf("Invalid argument: column family %s lists %d blob files, which rtable tables cannot hold; open it with table_format=block", fam.name, n)
		}
	}
	return nil
}
