// Package buildinfo says which godbbench a binary is: the release version
// (the repository's VERSION file, checked by a test) and the commit the go
// command stamped into the binary.
//
// Contract: Version is a constant; Commit and Describe read the binary's
// build information once and never fail: a binary built without VCS
// stamping (go build -buildvcs=false, or outside a git checkout) says so.
package buildinfo

import (
	"runtime/debug"
	"sync"
)

// Version is godbbench's release version.
const Version = "0.1.0"

var stamp = sync.OnceValues(func() (commit string, modified bool) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return commit, modified
})

// Commit returns the VCS revision the binary was built from ("" when it
// was not stamped) and whether the working tree had changes.
func Commit() (revision string, modified bool) { return stamp() }

// Describe is the version and commit in one phrase, e.g. "0.1.0 (commit
// 8b7037b1c2d3, modified)" or "0.1.0 (commit not stamped into this
// binary)".
func Describe() string {
	rev, modified := Commit()
	if rev == "" {
		return Version + " (commit not stamped into this binary)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		return Version + " (commit " + rev + ", modified)"
	}
	return Version + " (commit " + rev + ")"
}
