package main

import (
	"runtime"
	"testing"
)

func TestParseCPUs(t *testing.T) {
	for _, c := range []struct {
		in   string
		a, b int
		ok   bool
	}{
		{"0,1", 0, 1, true},
		{"3,2", 3, 2, true},
		{"0,0", 0, 0, false},
		{"0", 0, 0, false},
		{"0,1,2", 0, 0, false},
		{"a,1", 0, 0, false},
		{"-1,1", 0, 0, false},
		{"", 0, 0, false},
	} {
		a, b, err := parseCPUs(c.in)
		if (err == nil) != c.ok || (c.ok && (a != c.a || b != c.b)) {
			t.Errorf("parseCPUs(%q) = %d, %d, %v; want %d, %d, ok %v", c.in, a, b, err, c.a, c.b, c.ok)
		}
	}
}

// TestTrial measures a short trial between the first two CPUs, and checks
// that a CPU the process cannot use is an error, not a hang.
func TestTrial(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("SKIPPED: one CPU, no round trip to measure")
	}
	ns, err := trial(0, 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if ns <= 0 {
		t.Errorf("round trip %v ns", ns)
	}
	if _, err := trial(0, 1023, 1000); err == nil {
		t.Error("trial on CPU 1023 succeeded")
	}
	if _, err := trial(1023, 1, 1000); err == nil {
		t.Error("trial from CPU 1023 succeeded")
	}
}
