package rocksfmt

import (
	"testing"
	"time"
)

func TestFormatsMatchRocksDB(t *testing.T) {
	for n, want := range map[uint64]string{0: "0.00 KB", 512: "0.50 KB", 1 << 20: "1.00 MB", 3 << 29: "1.50 GB", 1 << 42: "4.00 TB", 1 << 52: "4096.00 TB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{9999: "9999", 10000: "10K", 9999999: "9999K", 10000000: "10M", 12345678901: "12G", -20000: "-20K"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q want %q", n, got, want)
		}
	}
	if got := HMS(0); got != "00:00:0.000" {
		t.Errorf("HMS(0) = %q", got)
	}
	if got := HMS(3723500 * time.Millisecond); got != "01:02:3.500" {
		t.Errorf("HMS = %q", got)
	}
}

func TestLevelStats(t *testing.T) {
	got := LevelStats([]Level{{Files: 3, SizeBytes: 5 << 20}, {Files: 12, SizeBytes: 1<<30 + 1<<19}, {}})
	want := "Level Files Size(MB)\n--------------------\n" +
		"  0        3        5\n" +
		"  1       12     1024\n" +
		"  2        0        0\n"
	if got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
}
