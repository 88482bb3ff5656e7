package report

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
	"github.com/godbbench/godbbench/internal/golden"
	"github.com/godbbench/godbbench/tools/results"
	"github.com/godbbench/godbbench/tools/runner"
	"github.com/godbbench/godbbench/tools/sampler"
	"github.com/godbbench/godbbench/tools/suite"
)

// syntheticRun builds a three-engine run with known numbers: "fast" (ours)
// beats the external baseline "base" and warned that it compacted
// differently; "broken" exited 1 at once with a tiny RSS, the case that
// must never win.
func syntheticRun(t *testing.T) *runner.Run {
	t.Helper()
	s, err := suite.Parse([]byte(`
name: synthetic
output: `+t.TempDir()+`
baseline: base
engines:
  - {name: fast, engine: native}
  - {name: base, binary: /usr/bin/db_bench}
  - {name: broken, engine: pebble, flags: [--bogus]}
passes:
  - {name: fill, benchmarks: "fillrandom,compact,readseq,readseq"}
  - {name: mem, tool: memtablerep_bench}
`), "synthetic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	samples := func(mb uint64, n int) []sampler.Sample {
		var out []sampler.Sample
		for i := 0; i < n; i++ {
			out = append(out, sampler.Sample{T: start.Add(time.Duration(i) * time.Second), Resident: mb * 256 * uint64(i+1) / uint64(n), Shared: 100, PageCache: 50})
		}
		return out
	}
	line := func(name string, ops int64, at, secs float64) results.Line {
		return results.Line{Name: name, OpsPerSec: ops, MicrosPerOp: 1e6 / float64(ops), Ops: 1000000, Seconds: secs, Start: start.Add(time.Duration(at * float64(time.Second)))}
	}
	compactWarned := results.Line{Name: "compact", Ops: 1, Seconds: 1, Start: start.Add(2 * time.Second),
		Warnings: []string{"WARNING: engine native cannot compact to a chosen level; ignoring target level 6"}}
	baseFill := line("fillrandom", 1000000, 0, 4)
	baseFill.Latency = map[string]jsonrecord.Latency{"write": {P50: 1.24, P99: 10.07, P999: 513.33}}
	baseRead := line("readseq", 3000000, 8, 1)
	baseRead.Latency = map[string]jsonrecord.Latency{"read": {P50: 0.62, P99: 5.84, P999: 142.73}}
	run := &runner.Run{Suite: s, ID: "20261130-010000-synthetic", Start: start, End: start.Add(time.Minute),
		Host:       runner.Host{CPU: "Test CPU", Cores: 2, MemTotal: 8 << 30, Kernel: "6.1.0", Filesystem: "tmpfs on /dev/shm"},
		Benchsuite: runner.Build{Path: "/opt/bin/benchsuite", Module: "github.com/godbbench/godbbench", Version: "(devel)", Revision: "0123456789abcdef0123", GoVersion: "go1.26.0"},
		Binaries: map[string]runner.Build{
			"/opt/bin/db_bench": {Path: "/opt/bin/db_bench", Module: "github.com/godbbench/godbbench", Version: "(devel)", Revision: "0123456789abcdef0123", Modified: true,
				Tags: "rocksdb", GoVersion: "go1.26.0", Engines: map[string]string{"pebble": "v2.1.7"}},
			"/usr/bin/db_bench": {Path: "/usr/bin/db_bench", Error: "not a Go binary; its engine version is in the pass headers"},
		}}
	run.Dir = filepath.Join(s.Output, run.ID)
	os.MkdirAll(run.Dir, 0o755)
	ours := func(pass, engine string) []string {
		return []string{"/opt/bin/db_bench", "--engine=" + engine, "--benchmarks=" + pass}
	}
	run.Results = []*runner.PassResult{
		{Pass: "fill", Engine: "fast", Status: "ok", DBApparent: 40 << 20, DBAllocated: 50 << 20, Version: "Native 0.1.0", Command: ours("fill", "native"),
			LogFile:  filepath.Join(run.Dir, "raw", "fill-fast.log"),
			Warnings: []string{"WARNING: engine native ignores option use_direct_reads"},
			Lines:    []results.Line{line("fillrandom", 2000000, 0, 2), compactWarned, line("readseq", 9000000, 3, 1), line("readseq", 9500000, 4, 1)},
			Records: []jsonrecord.Record{{Benchmark: "fillrandom"}, {Benchmark: "compact"}, {Benchmark: "readseq", Latency: map[string]jsonrecord.Latency{"read": {P50: 0.5, P99: 2, P999: 7}}},
				{Benchmark: "readseq", Latency: map[string]jsonrecord.Latency{"read": {P50: 0.5, P99: 2.5, P999: 8}}}},
			Sampler: &sampler.Result{Start: start, Samples: samples(100, 60), PageSize: 4096, PeakRSSBytes: 100 << 20, Wall: 6 * time.Second, PageCacheMethod: "cachestat"}},
		{Pass: "fill", Engine: "base", Status: "ok", DBApparent: 80 << 20, DBAllocated: 81 << 20, Version: "RocksDB 7.8.3",
			LogFile: filepath.Join(run.Dir, "raw", "fill-base.log"), Command: []string{"/usr/bin/db_bench", "--benchmarks=fill"},
			Lines:   []results.Line{baseFill, {Name: "compact", Ops: 1, Seconds: 4, MicrosPerOp: 4e6, Start: start.Add(4 * time.Second)}, baseRead, line("readseq", 3000000, 9, 1)},
			Sampler: &sampler.Result{Start: start, Samples: samples(400, 100), PageSize: 4096, PeakRSSBytes: 400 << 20, Wall: 10 * time.Second, PageCacheMethod: "cachestat"}},
		{Pass: "fill", Engine: "broken", Status: "exit 1", Failure: "ERROR: unknown command line flag 'bogus'", Command: ours("fill", "pebble"),
			LogFile: filepath.Join(run.Dir, "raw", "fill-broken.log"),
			Sampler: &sampler.Result{Start: start, Samples: samples(16, 1), PageSize: 4096, PeakRSSBytes: 16 << 20, Wall: 10 * time.Millisecond, ExitCode: 1, PageCacheMethod: "cachestat"}},
		{Pass: "mem", Engine: "fast", Status: "ok", Mem: []results.MemLine{{Benchmark: "fillrandom", WriteMicrosOp: 0.5}}, Sampler: &sampler.Result{Start: start}},
		{Pass: "mem", Engine: "base", Status: "skipped"},
		{Pass: "mem", Engine: "broken", Status: "skipped"},
	}
	run.Mismatches = []string{"pass fill, readseq#1: checksum 1 on fast but 2 on base"}
	return run
}

// earlierRun leaves the summary.json of a previous run in the output folder
// so the history page has a trend to draw.
func earlierRun(t *testing.T, run *runner.Run) {
	prev := summarize(run)
	prev.ID = "20261129-010000-synthetic"
	prev.Start, prev.End = run.Start.Add(-24*time.Hour), run.End.Add(-24*time.Hour)
	prev.Revision = "fedcba9876543210"
	prev.OpsPerSec["fill/fillrandom"]["fast"] = 1500000
	b, _ := json.Marshal(prev)
	dir := filepath.Join(run.Suite.Output, prev.ID)
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWriteReport(t *testing.T) {
	if dir := os.Getenv("REPORT_PNG_DIR"); dir != "" {
		// REPORT_PNG_DIR=DIR saves every chart as PNG there, to look at.
		n := 0
		pngHook = func(title string, png []byte) {
			n++
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d.png", n)), png, 0o644)
		}
		defer func() { pngHook = nil }()
	}
	run := syntheticRun(t)
	earlierRun(t, run)
	if err := Write(run); err != nil {
		t.Fatal(err)
	}
	md := read(t, filepath.Join(run.Dir, "summary.md"))
	for _, want := range []string{
		"> **FAILED: 1 process(es).**",
		"> - pass fill on broken: exit 1: ERROR: unknown command line flag 'bogus' (log raw/fill-broken.log)",
		"| fillrandom | **2,000,000 (2.00x)** | 1,000,000 (1.00x) | failed |",
		"| compact | 1.000 s † | 4.000 s (1.00x) | failed |",
		"| readseq #2 | **9,500,000 (3.17x)** | 3,000,000 (1.00x) | failed |",
		"- **broken failed (exit 1): ERROR: unknown command line flag 'bogus'**",
		"- fast, whole pass: WARNING: engine native ignores option use_direct_reads",
		"- † fast, compact: WARNING: engine native cannot compact to a chosen level; ignoring target level 6",
		"| fill | **100.0 MiB (0.25x)** | 400.0 MiB (1.00x) | failed |",
		"| fill | **40.0 MiB (0.50x)** <sub>alloc 50.0 MiB</sub> | 80.0 MiB (1.00x) <sub>alloc 81.0 MiB</sub> | failed |",
		"| fillrandom | write | — | 1.2 / 10.1 / 513.3 | failed |",
		"| readseq | read | 0.5 / 2.0 / 7.0 | 0.6 / 5.8 / 142.7 | failed |",
		"| fill | readseq #2 | fast | 3.17x base | 2 |",
		"| fill | compact | base | only one | 1 |",
		"- pass fill, readseq#1: checksum 1 on fast but 2 on base",
		"| fillrandom | 0.5 | — | — |",
		"| fast | /opt/bin/db_bench | github.com/godbbench/godbbench (devel) 0123456789ab+modified tags=rocksdb go1.26.0; pebble v2.1.7 | Native 0.1.0 |",
		"| base | /usr/bin/db_bench | not a Go binary; its engine version is in the pass headers | RocksDB 7.8.3 |",
		"Machine: 2 × Test CPU, 8.00 GiB RAM, kernel 6.1.0, DB directory on tmpfs on /dev/shm.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	if regexp.MustCompile(`failed[^|]*\(\d`).MatchString(md) {
		t.Errorf("a failed value carries a ratio:\n%s", md)
	}
	page := read(t, filepath.Join(run.Dir, "index.html"))
	for _, want := range []string{`<div class="banner"><b>FAILED: 1 process(es).</b>`, `<td class="failed">failed</td>`, `<td class="warned">1.000 s †</td>`,
		`class="mismatch"`, "RAM over time: fill", "RAM over time: fill on fast", "Speed relative to base: fill", "p99 read latency: fill", "p99 write latency: fill",
		"Peak RSS (MiB)", "DB size, apparent (MiB)", "broken (failed: no bar)", "anon + page cache: what the engine costs"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if bars := drawnBars(page, cssColor(engineColor(2))); len(bars) > 0 {
		t.Errorf("the failed engine has bars: %q", bars)
	}
	if bars := drawnBars(`<svg><text>Peak RSS</text><path d="M1,2L1,9L3,9L3,2Z" style="fill:#2CA02C" /></svg>`, "#2ca02c"); len(bars) != 1 {
		t.Errorf("drawnBars misses a drawn bar: %q", bars)
	}
	hist := read(t, filepath.Join(run.Suite.Output, "index.html"))
	for _, want := range []string{run.ID + "/index.html", "1 mismatches", "1: fill/broken", "Trend: synthetic, fill/fillrandom", "fedcba987654"} {
		if !strings.Contains(hist, want) {
			t.Errorf("history page lacks %q", want)
		}
	}
	golden.Check(t, "testdata/golden/summary.md", md)
	golden.Check(t, "testdata/golden/index.html", elideSVG(page))
	golden.Check(t, "testdata/golden/summary.json", read(t, filepath.Join(run.Dir, "summary.json")))
	golden.Check(t, "testdata/golden/history.html", elideSVG(hist))
	renderInChromium(t, filepath.Join(run.Dir, "index.html"))
}

// drawnBars returns the bars of colour with a height in the bar charts of
// page (gonum draws a value of 0 as a flat path).
func drawnBars(page, colour string) []string {
	var out []string
	fill := regexp.MustCompile(`<path d="([^"]*)"[^>]*style="[^"]*fill:` + strings.ToUpper(colour))
	for _, svg := range regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(page, -1) {
		if !strings.Contains(svg, "speed relative to") && !strings.Contains(svg, "Peak RSS") && !strings.Contains(svg, "DB size") {
			continue
		}
		for _, m := range fill.FindAllStringSubmatch(svg, -1) {
			if distinctYs(m[1]) > 1 {
				out = append(out, m[0])
			}
		}
	}
	return out
}

// distinctYs counts the distinct y coordinates of an SVG path's points.
func distinctYs(d string) int {
	ys := map[string]bool{}
	for _, m := range regexp.MustCompile(`[ML]([-0-9.]+),([-0-9.]+)`).FindAllStringSubmatch(d, -1) {
		ys[m[2]] = true
	}
	return len(ys)
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// elideSVG keeps a page's golden file about the page, not gonum's drawing.
func elideSVG(s string) string {
	return regexp.MustCompile(`(?s)<svg.*?</svg>`).ReplaceAllString(s, "<svg>…</svg>")
}

// overlapProbe, appended to a copy of the page, marks the body with every
// pair of texts of one chart whose rendered boxes intersect.
const overlapProbe = `<script>
var found = [];
document.querySelectorAll("svg").forEach(function (svg, n) {
  var boxes = [];
  svg.querySelectorAll("text").forEach(function (t) {
    if (t.textContent.trim() !== "") boxes.push([t.textContent, t.getBoundingClientRect()]);
  });
  for (var i = 0; i < boxes.length; i++) for (var j = i + 1; j < boxes.length; j++) {
    var a = boxes[i][1], b = boxes[j][1];
    var w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 1 && h > 1) found.push("chart " + n + ": " + boxes[i][0] + " / " + boxes[j][0]);
  }
});
document.body.setAttribute("data-overlaps", found.join("; "));
document.body.setAttribute("data-svgs", document.querySelectorAll("svg").length);
</script>`

// renderInChromium loads the page in headless Chromium, when installed, and
// checks that the rendered DOM holds the charts and that no two texts of a
// chart (titles, axis labels, ticks, stage labels) overlap.
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
	probe := filepath.Join(t.TempDir(), "probe.html")
	html := strings.Replace(read(t, page), "</body>", overlapProbe+"</body>", 1)
	if err := os.WriteFile(probe, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+probe).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := regexp.MustCompile(`<body data-overlaps="([^"]*)" data-svgs="(\d+)"`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the probe did not run; rendered DOM:\n%.2000s", out)
	}
	if n, _ := strconv.Atoi(string(m[2])); n < 5 {
		t.Errorf("rendered DOM has %d svg elements", n)
	}
	if len(m[1]) > 0 {
		t.Errorf("overlapping texts: %s", m[1])
	}
}
