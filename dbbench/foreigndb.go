package dbbench

import (
	"os"
	"path/filepath"
)

// foreignDB names the engine that created the database in dir when that is
// RocksDB or Pebble, whose files the native engine cannot read although
// they carry the same names (CURRENT, MANIFEST-*, *.log, *.sst). The
// evidence is a file only that engine writes: IDENTITY for RocksDB, a
// marker.format-version.* file for Pebble. It returns "" for anything
// else, including a missing or unreadable dir.
func foreignDB(dir string) (creator, evidence string) {
	if fi, err := os.Stat(filepath.Join(dir, "IDENTITY")); err == nil && fi.Mode().IsRegular() {
		return "RocksDB", "IDENTITY"
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "marker.format-version.*")); len(m) > 0 {
		return "Pebble", filepath.Base(m[0])
	}
	return "", ""
}

// foreignDBEngine is the --engine value that opens a database foreignDB
// names.
var foreignDBEngine = map[string]string{"RocksDB": "rocksdb", "Pebble": "pebble"}
