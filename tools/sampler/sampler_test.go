package sampler

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test re-executes its own binary as a child that allocates and touches
// exactly SAMPLER_CHILD_MB MiB, holds it, and exits; the sampler must see it.
func TestMain(m *testing.M) {
	if mb := os.Getenv("SAMPLER_CHILD_MB"); mb != "" {
		n, _ := strconv.Atoi(mb)
		buf := make([]byte, n<<20)
		for i := 0; i < len(buf); i += 4096 {
			buf[i] = 1
		}
		f, _ := os.Open(os.Args[0]) // an open regular file for the page-cache probe
		time.Sleep(2500 * time.Millisecond)
		f.Close()
		os.Stdout.Write(buf[:1])
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func TestSamplesChildMemory(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SAMPLER_CHILD_MB=96")
	var series bytes.Buffer
	res, err := Run(cmd, 200*time.Millisecond, time.Minute, &series)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || res.TimedOut {
		t.Fatalf("exit %d timedout %v", res.ExitCode, res.TimedOut)
	}
	if len(res.Samples) < 5 {
		t.Fatalf("%d samples", len(res.Samples))
	}
	if peak := res.PeakResident(time.Time{}, time.Time{}); peak < 96<<20 {
		t.Fatalf("sampled peak resident %d < 96 MiB", peak)
	}
	if res.PeakRSSBytes < 96<<20 || res.PeakRSSBytes > 400<<20 {
		t.Fatalf("rusage peak %d", res.PeakRSSBytes)
	}
	if res.Wall < 2*time.Second {
		t.Fatalf("wall %v", res.Wall)
	}
	if res.PageCacheMethod == "none" {
		t.Fatal("no page-cache method")
	}
	lines := strings.Split(strings.TrimSpace(series.String()), "\n")
	if !strings.HasPrefix(lines[0], "# start_epoch=") || len(lines) != len(res.Samples)+1 || len(strings.Fields(lines[1])) != 9 {
		t.Fatalf("series:\n%s", series.String())
	}
}

func TestTimeoutKills(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	res, err := Run(cmd, 100*time.Millisecond, 300*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.Wall > 10*time.Second {
		t.Fatalf("%+v", res)
	}
}

func TestDirSize(t *testing.T) {
	d := t.TempDir()
	os.WriteFile(d+"/a", make([]byte, 10000), 0o644)
	app, alloc, err := DirSize(d)
	if err != nil || app != 10000 || alloc < 10000 {
		t.Fatal(app, alloc, err)
	}
}

func TestNextInterval(t *testing.T) {
	for _, c := range []struct{ elapsed, interval, want time.Duration }{
		{0, time.Second, EarlyInterval},
		{9 * time.Second, 200 * time.Millisecond, EarlyInterval},
		{EarlyPeriod, 200 * time.Millisecond, 200 * time.Millisecond},
		{time.Minute, time.Second, time.Second},
		{0, 50 * time.Millisecond, 50 * time.Millisecond},
	} {
		if got := nextInterval(c.elapsed, c.interval); got != c.want {
			t.Errorf("nextInterval(%v, %v) = %v, want %v", c.elapsed, c.interval, got, c.want)
		}
	}
}

// BenchmarkSample measures one tick on this process, with files open as a
// DB's would be.
func BenchmarkSample(b *testing.B) {
	dir := b.TempDir()
	for i := 0; i < 64; i++ {
		f, err := os.Create(dir + "/f" + strconv.Itoa(i))
		if err != nil {
			b.Fatal(err)
		}
		f.Write(make([]byte, 64<<10))
		defer f.Close()
	}
	method := pageCacheMethod()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok := sample(os.Getpid(), method); !ok {
			b.Fatal("no sample")
		}
	}
}
