//go:build !linux

package clock

// kernelTrustsTSC: outside Linux the CPU's invariant flag decides.
func kernelTrustsTSC() bool { return true }
