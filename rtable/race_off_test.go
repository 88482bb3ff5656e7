//go:build !race

package rtable

const raceEnabled = false
