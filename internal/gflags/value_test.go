package gflags

import (
	"math"
	"testing"
)

func TestFormatDouble(t *testing.T) {
	cases := map[float64]string{
		0.9:    "0.90000000000000002",
		2.517:  "2.5169999999999999",
		0.2615: "0.26150000000000001",
		10:     "10",
		0:      "0",
		1e20:   "1e+20",
		1e-5:   "1.0000000000000001e-05",
		0.25:   "0.25",
	}
	for f, want := range cases {
		if got := formatDouble(f); got != want {
			t.Errorf("%v: got %q want %q", f, got, want)
		}
	}
	if formatDouble(math.Inf(1)) != "inf" || formatDouble(math.NaN()) != "nan" {
		t.Error("special values")
	}
}

func TestParseNumbers(t *testing.T) {
	ints := map[string]int64{"0": 0, "-0": 0, "0x7fffffffffffffff": math.MaxInt64, "\n12": 12, "00012": 12}
	for s, want := range ints {
		if got, ok := parseInt(s); !ok || got != want {
			t.Errorf("parseInt(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", " ", "0x", "0xg", "1.0", "1e3", "--1", "+-1", "0x-1", " 0x10", "1 "} {
		if _, ok := parseInt(s); ok {
			t.Errorf("parseInt(%q) accepted", s)
		}
	}
	if v, ok := parseUint("   "); !ok || v != 0 {
		t.Errorf("parseUint of spaces: %d %v", v, ok)
	}
	if _, ok := parseUint(" \t"); ok {
		t.Error("parseUint of a tab accepted")
	}
	if v, ok := parseUint("0xffffffffffffffff"); !ok || v != math.MaxUint64 {
		t.Errorf("parseUint max hex: %d %v", v, ok)
	}
	for _, s := range []string{"-0", " -1", "0x10000000000000000"} {
		if _, ok := parseUint(s); ok {
			t.Errorf("parseUint(%q) accepted", s)
		}
	}
	doubles := map[string]float64{"1": 1, "-2.5": -2.5, "5.": 5, "1E2": 100, "0x.8": 0.5, "0X1P+1": 2, " 3": 3, "0": 0, "0e-999": 0}
	for s, want := range doubles {
		if got, ok := parseDouble(s); !ok || got != want {
			t.Errorf("parseDouble(%q) = %v, %v", s, got, ok)
		}
	}
	for _, s := range []string{".", "e5", "1e+", "0x", "0xp1", "inf1", "nan(", "1.5.2", "4e-320"} {
		if _, ok := parseDouble(s); ok {
			t.Errorf("parseDouble(%q) accepted", s)
		}
	}
	if v, ok := parseDouble("nan(x1_)"); !ok || !math.IsNaN(v) {
		t.Error("nan(chars)")
	}
}
