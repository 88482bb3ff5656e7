//go:build invariants || race

package invariants

// Enabled is true: this build has the invariants tag or the race detector.
const Enabled = true
