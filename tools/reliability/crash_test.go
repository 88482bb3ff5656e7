package reliability

import (
	"testing"
	"time"
)

// TestCrashLoop kills writers of every engine and configuration and
// requires every acknowledged write back after each reopen: a few cycles
// each by default, 200 with RELIABILITY_LONG=1.
func TestCrashLoop(t *testing.T) {
	skipShort(t)
	cycles := 4
	if long() {
		cycles = 200
	}
	for _, c := range crashMatrix() {
		t.Run(c.Engine+"/"+c.Config.Name(), func(t *testing.T) {
			start := time.Now()
			r := RunCrashLoop(CrashLoop{Engine: c.Engine, Config: c.Config, Cycles: cycles, Seed: time.Now().UnixNano(), Dir: t.TempDir()})
			t.Logf("%d cycles in %v: %d batches acknowledged, %d killed while opening, %d writes lost, %d unflushed writes dropped",
				r.Cycles, time.Since(start).Round(time.Millisecond), r.AckedBatches, r.KilledOpening, r.LostWrites, r.UnflushedLost)
			report(t, r.Failures)
		})
	}
}
