//go:build !race

package dbbench

// raceEnabled: the race detector is off (race_on_test.go says why it
// matters).
const raceEnabled = false
