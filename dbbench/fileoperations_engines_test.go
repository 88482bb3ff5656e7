package dbbench_test

import (
	"os"
	"strings"
	"testing"
)

// TestFileOperationsCountOnNativeAndPebble: the native and pebble engines
// print db_bench's counter lines after each benchmark, and the counts
// move with the work: a fill with small write buffers opens, appends to,
// syncs and closes files; a readrandom of a DB read with pread (no
// mmap_read, a block cache too small to hold it) reads.
func TestFileOperationsCountOnNativeAndPebble(t *testing.T) {
	want, err := os.ReadFile("testdata/file_operations_report.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range []string{"native", "pebble"} {
		t.Run(eng, func(t *testing.T) {
			out := runOurs(t, eng, []string{"--benchmarks=fillseq,readrandom", "--num=20000", "--seed=1",
				"--write_buffer_size=262144", "--cache_size=65536", "--report_file_operations"})
			fill := fileOperationsBlock(out, "fillseq")
			if got := counterValue.ReplaceAllString(strings.Join(fill, "\n"), ": N"); got+"\n" != string(want) {
				t.Fatalf("fillseq's report:\n%s\nwant:\n%s", got, want)
			}
			for _, c := range []struct {
				name string
				min  int
			}{
				{"Num files opened", 2}, {"Num Close()", 1}, {"Num Append()", 20000},
				{"Num bytes written", 20000 * 100},
			} {
				if n := counterOf(fill, c.name); n < c.min {
					t.Errorf("fillseq: %s: %d, want at least %d\n%s", c.name, n, c.min, strings.Join(fill, "\n"))
				}
			}
			if n := counterOf(fill, "Num Sync()") + counterOf(fill, "Num Fsync()"); n < 1 {
				t.Errorf("fillseq synced no file (flushes write tables):\n%s", strings.Join(fill, "\n"))
			}
			read := fileOperationsBlock(out, "readrandom")
			if counterOf(read, "Num Read()") < 1 || counterOf(read, "Num bytes read") < 1 {
				t.Errorf("readrandom read nothing:\n%s", strings.Join(read, "\n"))
			}
		})
	}
}
