//go:build race

package wal

// raceEnabled: the race detector's instrumentation allocates, so
// allocation counts are meaningless there.
const raceEnabled = true
