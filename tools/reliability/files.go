package reliability

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// File kinds, by name, across the engines' directory layouts (RocksDB's,
// which native shares, and Pebble's).
const (
	KindCurrent  = "CURRENT"
	KindManifest = "MANIFEST"
	KindWAL      = "WAL"
	KindTable    = "table"
	KindOptions  = "OPTIONS"
	KindLock     = "LOCK"
	KindInfoLog  = "LOG"
	KindMarker   = "marker" // Pebble's marker.* files (format version, manifest)
	KindOther    = "other"
)

// FileKinds lists the kinds in report order.
var FileKinds = []string{KindCurrent, KindManifest, KindWAL, KindTable, KindOptions, KindLock, KindInfoLog, KindMarker, KindOther}

// fileKind names the kind of a database file by its name.
func fileKind(name string) string {
	switch {
	case name == "CURRENT":
		return KindCurrent
	case strings.HasPrefix(name, "MANIFEST-"):
		return KindManifest
	case strings.HasSuffix(name, ".log"):
		return KindWAL
	case strings.HasSuffix(name, ".sst"), strings.HasSuffix(name, ".ldb"):
		return KindTable
	case strings.HasPrefix(name, "OPTIONS-"):
		return KindOptions
	case name == "LOCK":
		return KindLock
	case strings.HasPrefix(name, "LOG"):
		return KindInfoLog
	case strings.HasPrefix(name, "marker."):
		return KindMarker
	}
	return KindOther
}

// listFiles returns the names and sizes of the regular files in dir.
func listFiles(dir string) (map[string]int64, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			return nil, err
		}
		out[e.Name()] = fi.Size()
	}
	return out, nil
}

// sortedNames returns m's keys in order.
func sortedNames(m map[string]int64) []string {
	n := make([]string, 0, len(m))
	for k := range m {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// copyDir copies the regular files of src into dst, which must exist.
func copyDir(dst, src string) error {
	files, err := listFiles(src)
	if err != nil {
		return err
	}
	for name := range files {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
