//go:build !race

package enginetest

// raceEnabled: see race_on.go.
const raceEnabled = false
