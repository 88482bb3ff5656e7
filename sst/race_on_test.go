//go:build race

package sst

// raceEnabled is true in -race builds, where the race runtime's own
// allocations make allocation counts meaningless.
const raceEnabled = true
