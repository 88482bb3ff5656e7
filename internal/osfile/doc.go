// Package osfile holds the few operating-system file operations that more
// than one package needs done the same way: making a directory's entries
// durable, creating directories durably, and taking an advisory lock on a
// file.
//
// Contract: SyncDir returns only after the directory's entries (creations,
// renames, removals) are on stable storage, or with the error that stopped
// it. MkdirAllDurable returns only after every directory it created is an
// entry its parent has synced; it syncs nothing for directories that
// already existed. Flock never blocks: a lock another open file description holds, or a
// POSIX record lock (RocksDB's and Pebble's) on the file, is ErrWouldBlock,
// which callers turn into RocksDB's "Resource temporarily unavailable"
// words.
package osfile
