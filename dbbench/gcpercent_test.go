package dbbench

import (
	"runtime/debug"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// currentGCPercent reads the collector's target without changing it.
func currentGCPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestApplyGCPercent: the engine's target holds for the run and the old
// one comes back after; GOGC, when set, and an engine without a target
// leave the runtime's alone.
func TestApplyGCPercent(t *testing.T) {
	before := currentGCPercent()
	noEnv := func(string) string { return "" }
	restore := applyGCPercent(engine.Info{GCPercent: 37}, noEnv)
	if p := currentGCPercent(); p != 37 {
		t.Errorf("during the run: %d, want 37", p)
	}
	restore()
	if p := currentGCPercent(); p != before {
		t.Errorf("after the run: %d, want %d", p, before)
	}
	gogc := func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	}
	for name, c := range map[string]struct {
		info   engine.Info
		getenv func(string) string
	}{
		"GOGC set":  {engine.Info{GCPercent: 37}, gogc},
		"no target": {engine.Info{}, noEnv},
	} {
		restore := applyGCPercent(c.info, c.getenv)
		if p := currentGCPercent(); p != before {
			t.Errorf("%s: %d, want the runtime's %d", name, p, before)
		}
		restore()
	}
}
