package lsm

import (
	"errors"
	"fmt"

	"github.com/godbbench/godbbench/rtable"
	"github.com/godbbench/godbbench/sst"
)

// VerifyChecksum checks every checksum of every table of the current
// version, as RocksDB's DB::VerifyChecksum does: each table is opened anew
// (no block cache, no mapping), which checks its footer and its
// properties, index and filter blocks, and then every data block is read
// from the file and checked (sst.Reader.VerifyBlocks); an rtable table is
// opened (every section checked) and its value groups checked
// (rtable.Reader.VerifyValues). Memtables and WALs
// are not checked (RocksDB does not check them either). The first damage
// found is returned in RocksDB's words, "Corruption: ...", naming the file
// and the offset of the block.
func (db *DB) VerifyChecksum() error {
	rs := db.def.reads.get()
	if rs == nil {
		return ErrClosed
	}
	defer rs.unref()
	for _, files := range rs.v.levels {
		for _, f := range files {
			if err := db.checkTableChecksums(f); err != nil {
				if errors.Is(err, sst.ErrCorruption) {
					return fmt.Errorf("Corruption: %w", err)
				}
				return err
			}
		}
	}
	return nil
}

func (db *DB) checkTableChecksums(f *fileMeta) error {
	name := tableName(db.dir, f.num)
	file, err := db.fs.OpenReadOnly(name)
	if err != nil {
		return fmt.Errorf("IO error: While open a file for random read: %s: %w", name, err)
	}
	if isRTable(file, int64(f.size)) {
		// Open checks every section but the values; VerifyValues checks
		// those.
		r, err := rtable.Open(file, int64(f.size), rtable.ReaderOptions{Name: name})
		if err != nil {
			return err
		}
		err = r.VerifyValues()
		if cerr := db.closeRead(r); err == nil {
			err = cerr
		}
		return err
	}
	r, err := sst.Open(file, int64(f.size), sst.ReaderOptions{VerifyChecksums: true, FileNum: f.num, Name: name, FileOperations: db.fileCounts()})
	if err != nil {
		return err
	}
	err = r.VerifyBlocks()
	if cerr := db.closeRead(r); err == nil {
		err = cerr
	}
	return err
}

// ErrNoFileChecksumGen is VerifyFileChecksums' error without a file
// checksum generator, in RocksDB's words.
var ErrNoFileChecksumGen = errors.New("Invalid argument: Cannot verify file checksum if options.file_checksum_gen_factory is null")

// VerifyFileChecksums is RocksDB's DB::VerifyFileChecksums. It needs a
// file checksum generator (options.Options.FileChecksums) and fails with
// ErrNoFileChecksumGen without one. Tables here carry no whole-file
// checksum: the MANIFEST records none (its format has no field for one),
// so every table is skipped, as RocksDB skips a table whose recorded
// checksum is unknown, and the call succeeds having compared nothing.
// VerifyChecksum checks every block of every table.
func (db *DB) VerifyFileChecksums() error {
	if !db.opts.FileChecksums() {
		return ErrNoFileChecksumGen
	}
	rs := db.def.reads.get()
	if rs == nil {
		return ErrClosed
	}
	rs.unref()
	return nil
}
