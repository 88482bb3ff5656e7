package reliability

import (
	"fmt"
	"testing"
	"time"
)

func enospcEngines() []EngineConfig {
	return withRocksDB([]EngineConfig{
		{"native", Config{Sync: true}},
		{"native", Config{MmapWrite: true}},
		{"pebble", Config{Sync: true}},
	}, Config{Sync: true})
}

// TestENOSPC fills a small tmpfs with each engine: the writer must report
// the error and exit, and a reopen with room must hold every acknowledged
// write. Without root or a mountable tmpfs it skips, saying so.
func TestENOSPC(t *testing.T) {
	skipShort(t)
	for _, ec := range enospcEngines() {
		t.Run(ec.Engine+"/"+ec.Config.Name(), func(t *testing.T) {
			r := RunENOSPC(ec.Engine, ec.Config, t.TempDir(), 8, 1, 15*time.Second)
			if r.Skipped != "" {
				t.Skip("ENOSPC PROBE NOT RUN: " + r.Skipped)
			}
			t.Logf("%+v", r)
			var failures []string
			if r.Writer != "error, exit 1" || !r.CloseReturned {
				failures = append(failures, fmt.Sprintf("writer: %s (close returned: %v), want the error reported and exit 1 after Close", r.Writer, r.CloseReturned))
			}
			if r.Reopen != "ok" || r.LostWrites != 0 {
				failures = append(failures, fmt.Sprintf("reopen: %s, %d acknowledged writes lost", r.Reopen, r.LostWrites))
			}
			report(t, failures)
		})
	}
}
