package dbbench

import "github.com/godbbench/godbbench/internal/osfile"

// mkdirDurable creates dir and its missing ancestors and syncs the parent of
// each one it created, so that a directory the run made (--db, --wal_dir,
// a backup's) survives a power loss with the synced files in it.
func mkdirDurable(dir string) error {
	return osfile.MkdirAllDurable(osfile.OS{}, dir)
}
