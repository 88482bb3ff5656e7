package reliability

import (
	"testing"
	"time"
)

func enospcEngines() []EngineConfig {
	return []EngineConfig{
		{"native", Config{Sync: true}},
		{"native", Config{MmapWrite: true}},
		{"pebble", Config{Sync: true}},
	}
}

// TestENOSPC fills a small tmpfs with each engine: the writer must report
// the error and exit, and a reopen with room must hold every acknowledged
// write. Without root or a mountable tmpfs it skips, saying so.
func TestENOSPC(t *testing.T) {
	for _, ec := range enospcEngines() {
		t.Run(ec.Engine+"/"+ec.Config.Name(), func(t *testing.T) {
			r := RunENOSPC(ec.Engine, ec.Config, t.TempDir(), 8, 1, 15*time.Second)
			if r.Skipped != "" {
				t.Skip("ENOSPC PROBE NOT RUN: " + r.Skipped)
			}
			t.Logf("%+v", r)
			if r.Writer != "error, exit 1" || !r.CloseReturned {
				t.Errorf("writer: %s (close returned: %v), want the error reported and exit 1 after Close", r.Writer, r.CloseReturned)
			}
			if r.Reopen != "ok" || r.LostWrites != 0 {
				t.Errorf("reopen: %s, %d acknowledged writes lost", r.Reopen, r.LostWrites)
			}
		})
	}
}
