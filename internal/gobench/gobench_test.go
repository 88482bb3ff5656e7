package gobench

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestReadByBenchfmt writes configuration and results and reads them back
// with x/perf's benchfmt, the reader benchstat uses.
func TestReadByBenchfmt(t *testing.T) {
	var b strings.Builder
	Config(&b, "goos", "linux")
	Config(&b, "note", "two\nlines")
	b.WriteString("\n")
	Result(&b, Name("fillrandom", "engine", "native"), 1000, 3984.04, 251000, 27.8)
	Result(&b, Name("read random", "engine", "pe/b=ble"), 500, 12.5, 80000000, 0)
	r := benchfmt.NewReader(strings.NewReader(b.String()), "x")
	var got []string
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			ns, _ := rec.Value("sec/op") // benchfmt reads ns/op as sec/op
			ops, _ := rec.Value("ops/s")
			_, hasMB := rec.Value("B/s")
			got = append(got, fmt.Sprintf("%s|%s|%d|%.1f|%.0f|%v", rec.Name, rec.GetConfig("note"), rec.Iters, ns*1e9, ops, hasMB))
		case *benchfmt.SyntaxError:
			t.Fatalf("syntax error: %v", rec)
		}
	}
	want := []string{"Fillrandom/engine=native|two lines|1000|3984.0|251000|true", "Read_random/engine=pe_b_ble|two lines|500|12.5|80000000|false"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s\nfrom\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), b.String())
	}
}
