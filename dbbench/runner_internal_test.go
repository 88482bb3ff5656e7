package dbbench

import (
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// TestLocksThreads: benchmark threads are locked to OS threads unless the
// engine asks otherwise, always or beyond GOMAXPROCS threads.
func TestLocksThreads(t *testing.T) {
	cases := []struct {
		info    engine.Info
		threads int
		want    bool
	}{
		{engine.Info{}, 1, true},
		{engine.Info{}, 8, true},
		{engine.Info{UnlockedThreads: true}, 1, false},
		{engine.Info{UnlockedThreads: true}, 8, false},
		{engine.Info{UnlockedBeyondProcs: true}, 1, true},
		{engine.Info{UnlockedBeyondProcs: true}, 2, true},
		{engine.Info{UnlockedBeyondProcs: true}, 3, false},
	}
	for _, c := range cases {
		if got := locksThreads(c.info, c.threads, 2); got != c.want {
			t.Errorf("%+v, %d threads, 2 Ps: locked %v, want %v", c.info, c.threads, got, c.want)
		}
	}
}
