package pebble

import "github.com/cockroachdb/pebble/v2"

// Checkpoint is engine.Checkpointer: Pebble's own Checkpoint, with the
// WAL flushed first so that every acknowledged write is in the copy.
func (d *DB) Checkpoint(dir string) error {
	return d.db.Checkpoint(dir, pebble.WithFlushedWAL())
}
