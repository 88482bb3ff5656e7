package gflags

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestTypedConstructorsAndValidators(t *testing.T) {
	fs := NewFlagSet("/opt/tool", "")
	var out, errb bytes.Buffer
	fs.SetOutput(&out, &errb)
	fs.SetUsageMessage("usage text")
	fs.SetFile("pkg/tool.cc")
	b := fs.Bool("b", true, "")
	i32 := fs.Int32("i32", -1, "")
	u32 := fs.Uint32("u32", 1, "")
	i64 := fs.Int64("i64", -2, "")
	u64 := fs.Uint64("u64", 2, "")
	d := fs.Double("d", 1.5, "")
	s := fs.String("s", "x", "say true or false")
	reject := func(kind string) { errb.WriteString("no " + kind + "\n") }
	validators := map[string]any{
		"b":   func(w io.Writer, n string, v bool) bool { return v },
		"i32": func(w io.Writer, n string, v int32) bool { return v < 100 },
		"u32": func(w io.Writer, n string, v uint32) bool { return v < 100 },
		"i64": func(w io.Writer, n string, v int64) bool { return v < 100 },
		"u64": func(w io.Writer, n string, v uint64) bool { return v < 100 },
		"d":   func(w io.Writer, n string, v float64) bool { return v < 100 },
		"s": func(w io.Writer, n string, v string) bool {
			if v == "bad" {
				reject(n)
				return false
			}
			return true
		},
	}
	for name, fn := range validators {
		if err := fs.SetValidator(name, fn); err != nil {
			t.Fatal(err)
		}
	}
	rest, err := fs.Parse([]string{"--nob=1", "--i32=5", "--u32=6", "--i64=7", "--u64=8", "--d=0.25", "-s", "-dash"})
	if exitCode(err) != 1 {
		t.Fatalf("want validation failure for b, got %v", err)
	}
	if len(rest) != 0 || !*b || *i32 != 5 || *u32 != 6 || *i64 != 7 || *u64 != 8 || *d != 0.25 || *s != "-dash" {
		t.Fatalf("values %v %d %d %d %d %v %q", *b, *i32, *u32, *i64, *u64, *d, *s)
	}
	want := "Did you really mean to set flag 's' to the value '-dash'?ERROR: failed validation of new value 'false' for flag 'b'\n"
	if errb.String() != want {
		t.Fatalf("stderr %q", errb.String())
	}
	if (&ExitError{Code: 3}).Error() != "gflags: exit status 3" {
		t.Fatal("ExitError text")
	}
}

func TestHelpPackageAndUsage(t *testing.T) {
	fs := NewFlagSet("/opt/tool", "1.0")
	var out, errb bytes.Buffer
	fs.SetOutput(&out, &errb)
	fs.SetUsageMessage("usage text")
	fs.SetFile("pkg/tool.cc")
	fs.Int32("alpha", 1, "first")
	fs.SetFile("pkg/other.cc")
	fs.Int32("beta", 2, "second")
	fs.SetFile("elsewhere/x.cc")
	fs.Int32("gamma", 3, "third")
	_, err := fs.Parse([]string{"--helppackage"})
	want := "tool: usage text\n\n  Flags from pkg/other.cc:\n    -beta (second) type: int32 default: 2\n\n" +
		"  Flags from pkg/tool.cc:\n    -alpha (first) type: int32 default: 1\n"
	if exitCode(err) != 1 || out.String() != want || errb.Len() != 0 {
		t.Fatalf("got %v %q %q", err, out.String(), errb.String())
	}
	out.Reset()
	fs2 := NewFlagSet("/opt/tool", "")
	fs2.SetOutput(&out, &errb)
	if _, err := fs2.Parse([]string{"--version"}); exitCode(err) != 0 || out.String() != "tool\n" {
		t.Fatalf("version without string: %q", out.String())
	}
}

func TestDuplicateFlagPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "defined more than once") {
			t.Fatalf("recover %v", r)
		}
	}()
	fs := NewFlagSet("x", "")
	fs.Int32("help", 0, "")
}
