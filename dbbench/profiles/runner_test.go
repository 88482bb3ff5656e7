package profiles

import (
	"bytes"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// runOnMem runs the workload on fresh in-memory stores.
func runOnMem(t *testing.T, cfg Config) ([]PhaseResult, string) {
	t.Helper()
	reg := newMemRegistry()
	var out bytes.Buffer
	cfg.Dir = t.TempDir()
	cfg.Open = reg.open
	cfg.Out = &out
	res, err := Run(cfg)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	return res, out.String()
}

// checkAgainstModel compares every checksum of a run with the model's.
func checkAgainstModel(t *testing.T, cfg Config, res []PhaseResult) {
	t.Helper()
	want, err := Model(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := checksummed(res)
	if len(got) != len(want) {
		t.Fatalf("run has %d checksum phases, model %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Checksum != want[i].Checksum || got[i].Ops != want[i].Ops {
			t.Errorf("phase %s: run %s (%d ops), model %s %s (%d ops)", got[i].Name,
				FormatChecksum(got[i].Checksum), got[i].Ops, want[i].Name, FormatChecksum(want[i].Checksum), want[i].Ops)
		}
	}
}

func TestRunMatchesModel(t *testing.T) {
	cfg := Config{Profiles: 12_000, QueryLimit: 100, Seed: DefaultSeed}
	res, out := runOnMem(t, cfg)
	checkAgainstModel(t, cfg, res)
	t.Logf("output:\n%s", out)
	for _, name := range []string{PhaseInsert, PhasePreReadStabilize, PhaseSettle, PhaseStorage, PhaseReopen, PhaseVerify, PhasePeakMemory} {
		if !strings.Contains(out, name+" : ") {
			t.Errorf("output lacks a %s line:\n%s", name, out)
		}
	}
	if r := find(res, PhaseStorage); r == nil || r.Bytes <= 0 {
		t.Errorf("storage size not measured: %+v", r)
	}
	if !strings.Contains(out, "micros/op") || !strings.Contains(out, "(checksum ") {
		t.Errorf("result lines not in db_bench form:\n%s", out)
	}
}

// TestRunSmallN covers N below the created-at span and below the query
// limit, where ranges and country/status sets are cut short by N.
func TestRunSmallN(t *testing.T) {
	for _, n := range []int64{1, 2, 7, 300} {
		cfg := Config{Profiles: n, QueryLimit: 10, Seed: 12345}
		res, _ := runOnMem(t, cfg)
		checkAgainstModel(t, cfg, res)
	}
}

// TestRunThreads checks the parallel mode and its checksum merge against the
// model, and that thread counts give different checksums, as in the reference.
func TestRunThreads(t *testing.T) {
	cfg := Config{Profiles: 3_000, QueryLimit: 20, Seed: -77, Threads: 3}
	res, _ := runOnMem(t, cfg)
	checkAgainstModel(t, cfg, res)
	one, err := Model(Config{Profiles: 3_000, QueryLimit: 20, Seed: -77})
	if err != nil {
		t.Fatal(err)
	}
	if find(one, PhaseReadByUserID).Checksum == find(res, PhaseReadByUserID).Checksum {
		t.Error("one and three workers gave the same read checksum")
	}
}

func TestRunConfigErrors(t *testing.T) {
	open := func(string) (engine.DB, error) { return nil, nil }
	for _, cfg := range []Config{
		{Profiles: 0, Dir: "x", Open: open},
		{Profiles: 1 << 31, Dir: "x", Open: open},
		{Profiles: 10, Open: open},
		{Profiles: 10, Dir: "x"},
	} {
		if _, err := Run(cfg); err == nil {
			t.Errorf("Run(%+v) succeeded", cfg)
		}
	}
}

func TestCompareChecksumsAndMarkdown(t *testing.T) {
	cfg := Config{Profiles: 500, QueryLimit: 10, Seed: 1}
	a, _ := runOnMem(t, cfg)
	b, _ := runOnMem(t, cfg)
	by := map[string][]PhaseResult{"alpha": a, "beta": b}
	if err := CompareChecksums(by); err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, by); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"## Total By Engine", "## Write Readiness", "## Phase Results", "### alpha", "| insert profiles |", "Checksum validation passed"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("markdown lacks %q:\n%s", s, md.String())
		}
	}
	bad := append([]PhaseResult(nil), b...)
	for i := range bad {
		if bad[i].Name == PhaseQueryCreatedAt {
			bad[i].Checksum ^= 1
		}
	}
	by["beta"] = bad
	err := CompareChecksums(by)
	if err == nil || !strings.Contains(err.Error(), PhaseQueryCreatedAt) ||
		!strings.Contains(err.Error(), FormatChecksum(bad[0].Checksum)) && !strings.Contains(err.Error(), "beta") {
		t.Fatalf("mismatch not reported by phase: %v", err)
	}
}

// TestRunPublished100K runs the whole workload through the runner on the
// in-memory stores at the reference's smallest published size and checks
// every phase checksum and the final checksum against the published values.
func TestRunPublished100K(t *testing.T) {
	if !*publishedRuns {
		t.Skip("needs -profiles.published")
	}
	res, out := runOnMem(t, Config{Profiles: 100_000, QueryLimit: 100, Seed: DefaultSeed})
	got := checksummed(res)
	want := published[100_000]
	if len(got) != len(want) {
		t.Fatalf("%d checksum phases, want %d", len(got), len(want))
	}
	for i := range want {
		if h := FormatChecksum(got[i].Checksum); h != want[i] {
			t.Errorf("%s: %s, published %s", got[i].Name, h, want[i])
		}
	}
	t.Logf("output:\n%s", out)
}
