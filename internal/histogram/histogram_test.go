package histogram

import (
	"strings"
	"testing"
)

func TestBucketLimits(t *testing.T) {
	if len(bucketLimits) != 109 {
		t.Fatal(len(bucketLimits))
	}
	want := []uint64{1, 2, 3, 4, 6, 10, 15, 22, 34, 51, 76, 110, 170, 250, 380, 580, 870, 1300}
	for i, w := range want {
		if bucketLimits[i] != w {
			t.Fatalf("limit %d = %d want %d", i, bucketLimits[i], w)
		}
	}
	if bucketLimits[108] != 13000000000000000000 {
		t.Fatalf("last limit %d", bucketLimits[108])
	}
	if bucketLimits[79] != 108000000000000 {
		t.Fatalf("limit 79 = %d", bucketLimits[79])
	}
}

func TestBucketMapping(t *testing.T) {
	for v, b := range map[uint64]int{0: 0, 1: 0, 2: 1, 5: 4, 6: 4, 7: 5, 1 << 63: 108} {
		if got := bucketIndex(v); got != b {
			t.Errorf("bucket(%d) = %d want %d", v, got, b)
		}
	}
}

// TestAddBucket checks Add's table for small values against the search,
// across the table's end.
func TestAddBucket(t *testing.T) {
	for v := uint64(0); v < 4*uint64(len(smallBuckets)); v++ {
		h := New()
		h.Add(v)
		if want := bucketIndex(v); h.buckets[want] != 1 {
			t.Fatalf("Add(%d) counted in another bucket than %d", v, want)
		}
	}
}

func TestPercentileExample(t *testing.T) {
	// §5: 17460 of 20000 samples in [0,1] gives P50 = 10000/17460.
	h := New()
	for i := 0; i < 17460; i++ {
		h.Add(uint64(i % 2)) // 0 and 1 both fall in [0,1]
	}
	for i := 0; i < 2540; i++ {
		h.Add(5)
	}
	if got := h.Median(); got < 0.57273 || got > 0.57274 {
		t.Fatalf("median %f", got)
	}
}

func TestHistogramText(t *testing.T) {
	h := New()
	for _, v := range []uint64{3, 4, 4, 5, 9333} {
		h.Add(v)
	}
	s := h.String()
	lines := strings.Split(s, "\n")
	if lines[0] != "Count: 5 Average: 1869.8000  StdDev: 3731.60" {
		t.Fatalf("line 1: %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "Min: 3  Median: ") || !strings.HasSuffix(lines[1], "  Max: 9333") {
		t.Fatalf("line 2: %q", lines[1])
	}
	if lines[3] != strings.Repeat("-", 54) {
		t.Fatalf("dashes: %q", lines[3])
	}
	if lines[4] != "(       2,       3 ]        1  20.000%  20.000% ####" {
		t.Fatalf("row: %q", lines[4])
	}
	if lines[5] != "(       3,       4 ]        2  40.000%  60.000% ########" {
		t.Fatalf("row: %q", lines[5])
	}
	e := New().String()
	if !strings.HasPrefix(e, "Count: 0 Average: 0.0000  StdDev: 0.00\nMin: 0  Median: 0.0000  Max: 0\n") {
		t.Fatalf("empty: %q", e)
	}
	z := New()
	z.Add(0)
	if !strings.Contains(z.String(), "[       0,       1 ]        1 100.000% 100.000% ####################\n") {
		t.Fatalf("bucket 0 row: %q", z.String())
	}
}
