package lsm

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/godbbench/godbbench/lsm/wal"
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
//
// Open applies the rules as it reads the directory (recover and
// versionSet.recover); Destroy applies them first through foreignDatabase,
// so a fill never deletes another engine's files that carry this engine's
// names.

// foreignError names the engine that wrote dir and how it was recognised.
func foreignError(dir, engine, evidence, flag string) error {
	return fmt.Errorf("Invalid argument: %s holds a %s database (%s); open it with --engine=%s", dir, engine, evidence, flag)
}

// foreignDatabase returns the error naming the engine that wrote the
// database in dir (whose entries are names), or nil when it is this
// engine's, empty, or unreadable. With CURRENT there, it reads the first
// record of the MANIFEST CURRENT names, as an open would.
func foreignDatabase(fsys FS, dir string, names []string) error {
	if !slices.Contains(names, currentName) {
		return foreignByNames(dir, names)
	}
	cur, err := fsys.ReadFile(filepath.Join(dir, currentName))
	if err != nil {
		return nil
	}
	name := strings.TrimSuffix(string(cur), "\n")
	if t, _ := parseFileName(name); t != fileManifest {
		return nil
	}
	data, err := fsys.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil
	}
	rec, err := wal.NewReader(data).Next()
	if err != nil {
		return nil
	}
	if _, err := decodeEdit(rec); err == nil {
		return nil
	}
	return foreignManifest(fsys, dir, name, rec, names)
}

// foreignByNames refuses a directory without CURRENT whose DB files sit
// beside another engine's marker or IDENTITY file.
func foreignByNames(dir string, names []string) error {
	hasDBFile := false
	for _, n := range names {
		if t, _ := parseFileName(n); t == fileManifest || t == fileWAL || t == fileTable {
			hasDBFile = true
		}
	}
	if !hasDBFile {
		return nil
	}
	for _, n := range names {
		if strings.HasPrefix(n, "marker.") {
			return foreignError(dir, "Pebble", n+" is Pebble's", "pebble")
		}
	}
	for _, n := range names {
		if n == "IDENTITY" {
			return foreignError(dir, "RocksDB", "IDENTITY is RocksDB's", "rocksdb")
		}
	}
	return nil
}

// foreignManifest is called when the MANIFEST name in dir does not decode:
// it returns the foreign-engine error if its first record is another
// engine's, nil otherwise.
func foreignManifest(fsys FS, dir, name string, firstRecord []byte, names []string) error {
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
			return foreignError(dir, "Pebble", fmt.Sprintf("%s is in Pebble's format, comparator %q, and %s is Pebble's", name, cmp, opt), "pebble")
		}
		if !strings.HasPrefix(opt, "OPTIONS-") {
			continue
		}
		data, err := fsys.ReadFile(filepath.Join(dir, opt))
		if err == nil && strings.Contains(string(data), "pebble_version=") {
			return foreignError(dir, "Pebble", fmt.Sprintf("%s is in Pebble's format, comparator %q, and %s is Pebble's", name, cmp, opt), "pebble")
		}
	}
	return foreignError(dir, "RocksDB", fmt.Sprintf("%s is RocksDB's format, comparator %q", name, cmp), "rocksdb")
}
