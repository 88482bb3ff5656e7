package memtablerepbench

import (
	"math"
	"testing"
)

func TestFormatDouble(t *testing.T) {
	// Expected strings are what printf("%g") prints with glibc.
	cases := map[float64]string{
		0:               "0",
		2.37197:         "2.37197",
		11.158:          "11.158",
		47.0410000001:   "47.041",
		99.988:          "99.988",
		100:             "100",
		26104.6:         "26104.6",
		123456:          "123456",
		1234567:         "1.23457e+06",
		15000000:        "1.5e+07",
		0.0001:          "0.0001",
		0.00001234:      "1.234e-05",
		1e100:           "1e+100",
		-3.5:            "-3.5",
		1.0000005:       "1",
		999999.5:        "1e+06",
		math.Inf(1):     "inf",
		math.Inf(-1):    "-inf",
		318045.0 / 1e6:  "0.318045",
		11.1565 / 0.318: "35.0833",
	}
	for x, want := range cases {
		if got := formatDouble(x); got != want {
			t.Errorf("formatDouble(%v) = %q, want %q", x, got, want)
		}
	}
	if got := formatDouble(math.NaN()); got != "nan" && got != "-nan" {
		t.Errorf("formatDouble(NaN) = %q", got)
	}
}
