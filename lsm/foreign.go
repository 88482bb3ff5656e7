package lsm

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
)

// A directory written by another engine is refused with the evidence,
// before any of its files is read as this engine's or deleted:
//
//   - Without CURRENT (Pebble keeps none: its marker files name the
//     MANIFEST), a file named marker.* (Pebble's format-version and MANIFEST
//     markers) beside a MANIFEST, WAL or table: Pebble; a file named IDENTITY
//     (RocksDB writes one in every DB; this engine never does) beside one:
//     RocksDB.
//   - A MANIFEST named by CURRENT that does not decode as this engine's and
//     whose first record starts like a RocksDB VersionEdit (tag 1, the
//     comparator name, e.g. 01 1a "leveldb.BytewiseComparator"; this
//     engine's tag 1 is a log number): RocksDB, or Pebble when a marker.*
//     file or an OPTIONS-* file holding "pebble_version=" is there too.
//
// A marker or IDENTITY file alone, or beside this engine's own CURRENT and
// MANIFEST, is a leftover (Destroy deletes only this engine's names) and is
// ignored.

// foreignError names the engine that wrote dir and how it was recognised.
func foreignError(dir, engine, evidence, flag string) error {
	return fmt.Errorf("lsm: %s holds a %s database (%s); open it with --engine=%s", dir, engine, evidence, flag)
}

// checkForeignNames refuses a directory without CURRENT whose DB files sit
// beside another engine's marker or IDENTITY file.
func (db *DB) checkForeignNames(f dbFiles) error {
	hasDBFile := false
	for _, n := range f.dbNames {
		if t, _ := parseFileName(n); t == fileManifest || t == fileWAL || t == fileTable {
			hasDBFile = true
		}
	}
	if !hasDBFile {
		return nil
	}
	for _, n := range f.dbNames {
		if strings.HasPrefix(n, "marker.") {
			return foreignError(db.dir, "Pebble", n+" is Pebble's", "pebble")
		}
	}
	for _, n := range f.dbNames {
		if n == "IDENTITY" {
			return foreignError(db.dir, "RocksDB", "IDENTITY is RocksDB's", "rocksdb")
		}
	}
	return nil
}

// checkForeignManifest is called when the MANIFEST named does not decode:
// it returns the foreign-engine error if data is another engine's MANIFEST,
// nil otherwise.
func (db *DB) checkForeignManifest(name string, firstRecord []byte, names []string) error {
	if len(firstRecord) < 2 || firstRecord[0] != 1 {
		return nil
	}
	n, k := binary.Uvarint(firstRecord[1:])
	if k <= 0 || n == 0 || n > uint64(len(firstRecord)-1-k) {
		return nil
	}
	cmp := string(firstRecord[1+k : 1+k+int(n)])
	if !strings.Contains(strings.ToLower(cmp), "comparator") {
		return nil
	}
	for _, opt := range names {
		if strings.HasPrefix(opt, "marker.") {
			return foreignError(db.dir, "Pebble", fmt.Sprintf("%s is in Pebble's format, comparator %q, and %s is Pebble's", name, cmp, opt), "pebble")
		}
		if !strings.HasPrefix(opt, "OPTIONS-") {
			continue
		}
		data, err := db.fs.ReadFile(filepath.Join(db.dir, opt))
		if err == nil && strings.Contains(string(data), "pebble_version=") {
			return foreignError(db.dir, "Pebble", fmt.Sprintf("%s is in Pebble's format, comparator %q, and %s is Pebble's", name, cmp, opt), "pebble")
		}
	}
	return foreignError(db.dir, "RocksDB", fmt.Sprintf("%s is RocksDB's format, comparator %q", name, cmp), "rocksdb")
}
