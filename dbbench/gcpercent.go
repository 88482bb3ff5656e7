package dbbench

import (
	"runtime/debug"

	"github.com/godbbench/godbbench/engine"
)

// applyGCPercent sets the Go collector's target to the one the engine
// asks for (engine.Info.GCPercent) unless the user set GOGC, which then
// rules, and returns the function that restores the previous target
// (Main runs in tests' processes too).
func applyGCPercent(info engine.Info, getenv func(string) string) (restore func()) {
	if info.GCPercent <= 0 || getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(info.GCPercent)
	return func() { debug.SetGCPercent(old) }
}
