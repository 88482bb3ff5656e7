package runner

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestProgressTrackerFollowsTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.log")
	log, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	tr := newProgressTracker(path, []string{"db_bench", "--benchmarks=fillrandom,readrandom", "--num=1000", "--num=2000"})
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		write, want string
	}{
		{"RocksDB:    version 7.8.3\n", "benchmark 1/2 fillrandom"},
		{"... finished 500 ops                              \r", "benchmark 1/2 fillrandom: 500 of 2000 ops, 50 ops/s, ETA 30s"},
		{"... finished 1000 ops                              \r... fini", "benchmark 1/2 fillrandom: 1000 of 2000 ops, 50 ops/s, ETA 20s"},
		{"shed 1500 ops          \rfillrandom   :       2.000 micros/op 500000 ops/sec 0.004 seconds 2000 operations;\n", "benchmark 2/2 readrandom"},
		{"readrandom   :       1.000 micros/op 1000000 ops/sec 0.002 seconds 2000 operations;\n", "2 benchmarks done"},
	}
	for i, s := range steps {
		log.WriteString(s.write)
		if got := tr.line(at.Add(time.Duration(i) * 10 * time.Second)); got != s.want {
			t.Errorf("step %d: %q, want %q", i, got, s.want)
		}
	}
}
