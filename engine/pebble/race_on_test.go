//go:build race

package pebble

// raceEnabled is true under -race, where allocation counts are not meaningful.
const raceEnabled = true
