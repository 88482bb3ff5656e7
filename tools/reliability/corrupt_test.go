package reliability

import (
	"fmt"
	"testing"
	"time"
)

// matrixEngines are the engines and configurations the corruption matrix
// runs against: each engine, and the native engine reading tables through
// mappings (a short table must not raise SIGBUS), and rocksdb when built
// in (go test -tags rocksdb).
func matrixEngines() []EngineConfig {
	return withRocksDB([]EngineConfig{
		{"native", Config{}},
		{"native", Config{MmapRead: true}},
		{"pebble", Config{}},
	}, Config{})
}

// TestCorruptionMatrix damages every kind of file of every engine's
// database and fails on silent wrong data, a deleted live file, a crash or
// a hang, with a subtest per file kind: a few trials per kind by default,
// many with RELIABILITY_LONG=1.
func TestCorruptionMatrix(t *testing.T) {
	skipShort(t)
	flips, cuts := 2, 0
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
			t.Logf("seed %d: %d trials in %v", seed, len(r.Trials), time.Since(start).Round(time.Millisecond))
			failed := map[string][]string{}
			for _, tr := range r.Failed() {
				failed[tr.Kind] = append(failed[tr.Kind], fmt.Sprintf("%s %s: %s %s deleted %v", tr.File, tr.Damage, tr.Outcome, tr.Detail, tr.DeletedLive))
			}
			counts := r.Counts()
			for _, kind := range FileKinds {
				if _, ok := counts[kind]; !ok {
					continue
				}
				t.Run(kind, func(t *testing.T) {
					t.Logf("%v", counts[kind])
					report(t, failed[kind])
				})
			}
		})
	}
}
