package lsm

import "sync"

// Deleting files only while the directory lock is held.
//
// A reader may drop the last reference on a version after Close: an
// iterator closed after the DB, a Get racing Close, a checkpoint's copy.
// That release closes the version's readers and would delete the tables
// and blob files that only it listed. Once Close has given up the LOCK,
// another DB may own the directory (Destroy then a fresh Open restarts
// file numbers at 1; a checkpoint may be restored into it), and a number
// the released version held may name that DB's live file. So the releases
// delete through fileGuard, which Close shuts before it unlocks: a file
// released after that stays, and the next Open deletes it once it has
// proved it obsolete (opencheck.go), as for a process killed with
// obsolete files in place.
type fileGuard struct {
	mu       sync.RWMutex
	unlocked bool
}

// removeLocked deletes name unless the DB has given up its directory
// lock.
func (db *DB) removeLocked(name string) {
	g := &db.guard
	g.mu.RLock()
	defer g.mu.RUnlock()
	if !g.unlocked {
		db.fs.Remove(name)
	}
}

// shut stops removeLocked deleting; it waits for deletions under way.
func (g *fileGuard) shut() {
	g.mu.Lock()
	g.unlocked = true
	g.mu.Unlock()
}
