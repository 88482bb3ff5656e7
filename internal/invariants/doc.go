// Package invariants switches on the native engine's self-checks: checks of
// internal consistency (key order, sequence numbers, reference counts,
// double Close) that cost time on hot paths and can only fail through a bug
// in this module, never through bad input or a damaged file.
//
// Contract:
//   - Enabled is a constant: true in builds with the "invariants" tag or the
//     race detector, false otherwise. A check written as
//     `if invariants.Enabled && cond { ... }` compiles away in ordinary
//     builds, so it costs nothing there.
//   - A failed check panics through Violated with a message naming the
//     package and the broken rule. It never returns an error: a broken
//     invariant means the program's state can no longer be trusted.
//   - `go test -tags invariants` runs a package's tests with the checks on;
//     the Makefile's test target does so for memtable, sst and lsm.
package invariants

import "fmt"

// Violated panics with the message format and args describe, prefixed with
// "invariant violated: ". Callers reach it only when Enabled is true and a
// check failed.
func Violated(format string, args ...any) {
	panic("invariant violated: " + fmt.Sprintf(format, args...))
}
