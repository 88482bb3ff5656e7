package report

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
	"github.com/godbbench/godbbench/tools/results"
	"github.com/godbbench/godbbench/tools/runner"
	"github.com/godbbench/godbbench/tools/sampler"
	"github.com/godbbench/godbbench/tools/suite"
)

// syntheticRun builds a two-engine run with known numbers.
func syntheticRun(t *testing.T) *runner.Run {
	t.Helper()
	s, err := suite.Parse([]byte(`
name: synthetic
output: `+t.TempDir()+`
baseline: base
engines:
  - {name: fast, engine: native}
  - {name: base, binary: /usr/bin/db_bench}
passes:
  - {name: fill, benchmarks: "fillrandom,compact,readseq,readseq"}
  - {name: mem, tool: memtablerep_bench}
`), "synthetic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	samples := func(mb uint64) []sampler.Sample {
		var out []sampler.Sample
		for i := 0; i < 10; i++ {
			out = append(out, sampler.Sample{T: start.Add(time.Duration(i) * time.Second), Resident: mb * 256 * uint64(i+1) / 10, Shared: 100, PageCache: 50})
		}
		return out
	}
	line := func(name string, ops int64, at, secs float64) results.Line {
		return results.Line{Name: name, OpsPerSec: ops, Ops: 1000000, Seconds: secs, Start: start.Add(time.Duration(at * float64(time.Second)))}
	}
	run := &runner.Run{Suite: s, ID: "20261130-010000-synthetic", Start: start, End: start.Add(time.Minute)}
	run.Dir = filepath.Join(s.Output, run.ID)
	os.MkdirAll(run.Dir, 0o755)
	run.Results = []*runner.PassResult{
		{Pass: "fill", Engine: "fast", Status: "ok", DBAllocated: 50 << 20,
			Lines:   []results.Line{line("fillrandom", 2000000, 0, 2), {Name: "compact", Ops: 1, Seconds: 1, Start: start.Add(2 * time.Second)}, line("readseq", 9000000, 3, 1), line("readseq", 9500000, 4, 1)},
			Records: []jsonrecord.Record{{Benchmark: "readseq", Latency: map[string]jsonrecord.Latency{"read": {P50: 0.5, P99: 2, P999: 7}}}},
			Sampler: &sampler.Result{Start: start, Samples: samples(100), PageSize: 4096, PeakRSSBytes: 100 << 20, Wall: 6 * time.Second, PageCacheMethod: "cachestat"}},
		{Pass: "fill", Engine: "base", Status: "ok", DBAllocated: 80 << 20,
			Lines:   []results.Line{line("fillrandom", 1000000, 0, 4), {Name: "compact", Ops: 1, Seconds: 4, Start: start.Add(4 * time.Second)}, line("readseq", 3000000, 8, 1), line("readseq", 3000000, 9, 1)},
			Sampler: &sampler.Result{Start: start, Samples: samples(400), PageSize: 4096, PeakRSSBytes: 400 << 20, Wall: 10 * time.Second, PageCacheMethod: "cachestat"}},
		{Pass: "mem", Engine: "fast", Status: "ok", Mem: []results.MemLine{{Benchmark: "fillrandom", WriteMicrosOp: 0.5}}, Sampler: &sampler.Result{Start: start}},
		{Pass: "mem", Engine: "base", Status: "skipped"},
	}
	run.Mismatches = []string{"pass fill, readseq#1: checksum 1 on fast but 2 on base"}
	return run
}

func TestWriteReport(t *testing.T) {
	run := syntheticRun(t)
	if err := Write(run); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(run.Dir, "summary.md"))
	for _, want := range []string{
		"| fillrandom | **2,000,000 (2.00x)** | 1,000,000 (1.00x) |",
		"| compact | **1.000 s (4.00x)** | 4.000 s (1.00x) |",
		"| readseq #2 | **9,500,000 (3.17x)** | 3,000,000 (1.00x) |",
		"| fill | **100.0 MiB (0.25x)** | 400.0 MiB (1.00x) |",
		"| readseq | read | 0.5 / 2.0 / 7.0 | — |",
		"- pass fill, readseq#1: checksum 1 on fast but 2 on base",
		"| fillrandom | 0.5 | — |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q\n%s", want, md)
		}
	}
	page, _ := os.ReadFile(filepath.Join(run.Dir, "index.html"))
	html := string(page)
	if n := strings.Count(html, "<svg"); n < 5 {
		t.Errorf("%d inline SVG charts, want ops, RSS, size and RAM charts", n)
	}
	for _, want := range []string{`class="better"`, `class="mismatch"`, "RAM over time: fill on fast", "Speed relative to base: fill", "Peak RSS (MiB)"} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	hist, _ := os.ReadFile(filepath.Join(run.Suite.Output, "index.html"))
	if !strings.Contains(string(hist), run.ID+"/index.html") || !strings.Contains(string(hist), "1 mismatches") {
		t.Errorf("history index:\n%s", hist)
	}
	renderInChromium(t, filepath.Join(run.Dir, "index.html"))
}

// renderInChromium loads the page in headless Chromium, when installed, and
// checks the rendered DOM still holds the charts.
func renderInChromium(t *testing.T, page string) {
	bin := ""
	for _, b := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(b); err == nil {
			bin = b
			break
		}
	}
	if bin == "" {
		t.Log("headless Chromium not installed; skipping the rendering check")
		return
	}
	out, err := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+page).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if n := len(regexp.MustCompile(`<svg`).FindAll(out, -1)); n < 5 {
		t.Fatalf("rendered DOM has %d svg elements", n)
	}
}
