package reliability

import (
	"testing"
	"time"
)

// matrixEngines are the engines and configurations the corruption matrix
// runs against: each engine, and the native engine reading tables through
// mappings (a short table must not raise SIGBUS).
func matrixEngines() []EngineConfig {
	return []EngineConfig{
		{"native", Config{}},
		{"native", Config{MmapRead: true}},
		{"pebble", Config{}},
	}
}

// TestCorruptionMatrix damages every kind of file of every engine's
// database and fails on silent wrong data, a deleted live file, a crash or
// a hang: a few trials per kind by default, many with RELIABILITY_LONG=1.
func TestCorruptionMatrix(t *testing.T) {
	flips, cuts := 2, 0
	if testing.Short() {
		flips = 1
	}
	if long() {
		flips, cuts = 40, 10
	}
	for _, ec := range matrixEngines() {
		t.Run(ec.Engine+"/"+ec.Config.Name(), func(t *testing.T) {
			start := time.Now()
			seed := time.Now().UnixNano()
			r := RunMatrix(Matrix{Engine: ec.Engine, Config: ec.Config, Seed: seed, Flips: flips, Cuts: cuts, Dir: t.TempDir()})
			if r.Err != "" {
				t.Fatal(r.Err)
			}
			t.Logf("seed %d: %d trials in %v: %v", seed, len(r.Trials), time.Since(start).Round(time.Millisecond), r.Counts())
			for _, tr := range r.Failed() {
				t.Errorf("%s %s %s: %s %s deleted %v", tr.Kind, tr.File, tr.Damage, tr.Outcome, tr.Detail, tr.DeletedLive)
			}
		})
	}
}
