//go:build race

package dbbench

// raceEnabled: the race detector is on, and sync.Pool drops pooled
// objects at random, so allocation counts mean nothing.
const raceEnabled = true
