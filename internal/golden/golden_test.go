package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps the first failure instead of failing.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	if r.msg == "" {
		r.msg = "error"
	}
}

func (r *recorder) Fatalf(format string, args ...any) { r.msg = "fatal" }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "want.txt")
	if err := os.WriteFile(path, []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got, want string
	}{
		{"a\nb\nc\n", ""},
		{"a\nB\nc\n", "error"},
		{"a\nb\n", "error"},
		{"a\nb\nc\nd\n", "error"},
	} {
		r := &recorder{TB: t}
		Check(r, path, c.got)
		if r.msg != c.want {
			t.Errorf("Check(%q): %q, want %q", c.got, r.msg, c.want)
		}
	}
	r := &recorder{TB: t}
	Check(r, path+".missing", "x")
	if !strings.HasPrefix(r.msg, "fatal") {
		t.Errorf("missing file: %q", r.msg)
	}
}
