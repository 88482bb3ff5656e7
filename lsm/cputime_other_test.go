//go:build !linux

package lsm

import "testing"

// startThreadCPU resets the timer; per-thread CPU time is measured on
// Linux only.
func startThreadCPU(b *testing.B) func() {
	b.ResetTimer()
	return func() {}
}
