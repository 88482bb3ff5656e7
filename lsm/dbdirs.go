package lsm

import (
	"fmt"
	"path/filepath"

	"github.com/godbbench/godbbench/internal/osfile"
)

// A directory's name is an entry of its parent, and fsync of the directory
// itself (which the DB does after every file it creates there) does not
// make that entry durable: after a power loss, a DB whose every write was
// synced could be gone with its directory. So the DB makes its directories'
// entries durable in two places:
//
//   - makeDirs, on every writable Open, creates the DB and WAL directories
//     and any missing ancestors, and syncs the parent of each directory it
//     created (osfile.MkdirAllDurable);
//   - syncNewDBParents, when Open creates a new DB, syncs the parents of the
//     DB and WAL directories even where they already existed: db_bench
//     creates --db before the engine opens it, and another program (or an
//     Open that crashed before its sync) may have left the directory's
//     entry unsynced.
//
// A checkpoint creates its directory with osfile.MkdirAllDurable too
// (checkpoint.go).

// makeDirs creates the DB and WAL directories durably (see above).
func (db *DB) makeDirs() error {
	if err := osfile.MkdirAllDurable(db.fs, db.dir); err != nil {
		return fmt.Errorf("lsm: create %s: %w", db.dir, err)
	}
	if err := osfile.MkdirAllDurable(db.fs, db.walDir); err != nil {
		return fmt.Errorf("lsm: create WAL dir %s: %w", db.walDir, err)
	}
	return nil
}

// syncNewDBParents syncs the parent of the DB directory and, when it is
// another, of the WAL directory (see above).
func (db *DB) syncNewDBParents() error {
	dirs := []string{filepath.Clean(db.dir)}
	if w := filepath.Clean(db.walDir); w != dirs[0] {
		dirs = append(dirs, w)
	}
	for _, d := range dirs {
		parent := filepath.Dir(d)
		if err := db.fs.SyncDir(parent); err != nil {
			return fmt.Errorf("lsm: sync %s, the parent of the new DB's %s: %w", parent, filepath.Base(d), err)
		}
	}
	return nil
}
