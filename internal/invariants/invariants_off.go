//go:build !(invariants || race)

package invariants

// Enabled is false: an ordinary build, where every check compiles away.
const Enabled = false
