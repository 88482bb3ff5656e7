package dbbench_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
	"github.com/godbbench/godbbench/dbbench/profiles"
	"github.com/godbbench/godbbench/tools/results"
)

// TestProfilesOnEveryEngine runs --benchmarks=profiles on each registered
// engine and requires every phase checksum to equal the engine-free model's:
// the engines returned exactly the data the reference workload expects.
func TestProfilesOnEveryEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("engine runs skipped in -short mode (the race run); the plain run covers them")
	}
	const n = 3000
	model, err := profiles.Model(profiles.Config{Profiles: n, QueryLimit: 100 /* --profiles_query_limit default, as in the published runs */, Seed: profiles.DefaultSeed, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, p := range model {
		if p.Checksum != 0 {
			want[p.Name] = fmt.Sprintf("%016X", p.Checksum)
		}
	}
	if len(want) < 15 {
		t.Fatalf("model produced %d checksums", len(want))
	}
	for _, eng := range oracleEngines() {
		dir := t.TempDir()
		js := filepath.Join(dir, "r.jsonl")
		var out, errb bytes.Buffer
		args := []string{"--engine=" + eng, "--db=" + filepath.Join(dir, "db"), "--benchmarks=profiles",
			fmt.Sprintf("--num=%d", n), "--seed=1", "--report_json=" + js, "--progress_reports=false"}
		if code := dbbench.Main(args, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", eng, code, out.String(), errb.String())
		}
		recs, err := results.ReadJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, r := range recs {
			if w, ok := want[r.Benchmark]; ok {
				got++
				if r.Checksum != w {
					t.Errorf("%s: %s checksum %s, model %s", eng, r.Benchmark, r.Checksum, w)
				}
			}
		}
		if got != len(want) {
			t.Errorf("%s: %d of %d checksummed phases reported", eng, got, len(want))
		}
	}
}
