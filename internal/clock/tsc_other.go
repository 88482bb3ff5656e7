//go:build !amd64

package clock

// Without a known counter Nanos stays on the monotonic clock.
func readTSC() uint64    { return 0 }
func invariantTSC() bool { return false }
