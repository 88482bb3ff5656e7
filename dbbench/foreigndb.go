package dbbench

import (
	"fmt"
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

// foreignDBError is the open error for a --db another engine created, when
// the engine is native (the one that cannot tell such files from its own),
// or "".
func (r *runner) foreignDBError() string {
	name := r.opener.Info().Name
	if name != "native" {
		return ""
	}
	creator, evidence := foreignDB(r.cfg.db)
	if creator == "" {
		return ""
	}
	return fmt.Sprintf("open error: Invalid argument: %s holds a %s database (it has %s), which the %s engine cannot read; open it with --engine=%s",
		r.cfg.db, creator, evidence, name, foreignDBEngine[creator])
}
