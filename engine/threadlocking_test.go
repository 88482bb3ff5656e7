package engine

import "testing"

// TestThreadLocking: benchmark threads are locked to OS threads unless the
// engine asks otherwise, always or beyond GOMAXPROCS threads.
func TestThreadLocking(t *testing.T) {
	cases := []struct {
		policy  ThreadLocking
		threads int
		want    bool
	}{
		{LockAlways, 1, true},
		{LockAlways, 8, true},
		{LockNever, 1, false},
		{LockNever, 8, false},
		{LockUpToProcs, 1, true},
		{LockUpToProcs, 2, true},
		{LockUpToProcs, 3, false},
	}
	for _, c := range cases {
		if got := c.policy.Locks(c.threads, 2); got != c.want {
			t.Errorf("policy %d, %d threads, 2 Ps: locked %v, want %v", c.policy, c.threads, got, c.want)
		}
	}
}
