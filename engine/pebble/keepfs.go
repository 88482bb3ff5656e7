package pebble

import (
	"slices"
	"sync"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// keepFS is the file system Pebble gets for an open after which some
// tables must outlive Pebble's deletion of obsolete files: a Remove of one
// of those paths does nothing and reports success, once per path, so
// Pebble forgets the table and leaves it on disk. The MANIFEST check
// (manifestcheck.go) names them: complete tables that a MANIFEST ending in
// a torn edit does not name, whose entries are all elsewhere.
type keepFS struct {
	vfs.FS
	mu   sync.Mutex // Pebble deletes files from background goroutines
	keep []string   // removed from the list as their Remove calls come
}

// Remove skips the first removal of a kept path.
func (k *keepFS) Remove(name string) error {
	k.mu.Lock()
	i := slices.Index(k.keep, name)
	if i >= 0 {
		k.keep = slices.Delete(k.keep, i, i+1)
	}
	k.mu.Unlock()
	if i >= 0 {
		return nil
	}
	return k.FS.Remove(name)
}

// Unwrap gives the file system below, as vfs.FS asks.
func (k *keepFS) Unwrap() vfs.FS { return k.FS }
