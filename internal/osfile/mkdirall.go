package osfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DirMaker is what MkdirAllDurable creates and syncs directories through:
// the operating system's file system (OS) or a wrapper of it that counts or
// injects faults. Existence is asked of the operating system directly, so a
// DirMaker must be backed by it.
type DirMaker interface {
	// MkdirAll creates dir and any missing ancestors, as os.MkdirAll.
	MkdirAll(dir string) error
	// SyncDir makes dir's entries durable, as SyncDir.
	SyncDir(dir string) error
}

// OS is the DirMaker of the operating system: os.MkdirAll with mode 0755
// and SyncDir.
type OS struct{}

// MkdirAll implements DirMaker.
func (OS) MkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }

// SyncDir implements DirMaker.
func (OS) SyncDir(dir string) error { return SyncDir(dir) }

// MkdirAllDurable creates dir and any missing ancestors, then fsyncs the
// parent of each directory it created, deepest first, so that after it
// returns a power loss cannot take the new directories away (a new entry
// lives in its parent, and fsync of a file or of dir itself does not make
// the parent's entry durable). A directory that already existed is not
// synced, nor is its parent: the caller decides what an existing tree
// needs.
func MkdirAllDurable(m DirMaker, dir string) error {
	missing, err := missingDirs(dir)
	if err != nil {
		return err
	}
	if err := m.MkdirAll(dir); err != nil {
		return err
	}
	for _, d := range missing {
		if err := m.SyncDir(filepath.Dir(d)); err != nil {
			return fmt.Errorf("sync %s after creating %s: %w", filepath.Dir(d), filepath.Base(d), err)
		}
	}
	return nil
}

// missingDirs returns dir and those of its ancestors that do not exist,
// deepest first (nil when dir exists). An entry that exists but is not a
// directory ends the walk: creating below it fails, with MkdirAll's error.
// Errors other than not-exist (a permission denied on an ancestor) are
// returned.
func missingDirs(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; {
		_, err := os.Lstat(d)
		if err == nil {
			return missing, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			return missing, nil
		}
		d = parent
	}
}
