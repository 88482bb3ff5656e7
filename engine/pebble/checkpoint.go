package pebble

import "github.com/cockroachdb/pebble/v2"

// Checkpoint is engine.Checkpointer: Pebble's own Checkpoint, with the
// WAL flushed first so that every acknowledged write is in the copy.
//
// Pebble writes the checkpoint through the engine's file system, which
// after a failed write (a full backup disk, an I/O error) reports success
// for every later one without making it (failfs.go): a checkpoint that
// met or followed such a failure fails with it, rather than returning a
// copy with tables, MANIFEST or marker missing.
func (d *DB) Checkpoint(dir string) error {
	if err := d.fs.failed(); err != nil {
		return err
	}
	if err := d.db.Checkpoint(dir, pebble.WithFlushedWAL()); err != nil {
		return err
	}
	return d.fs.failed()
}
