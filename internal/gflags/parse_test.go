package gflags

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// testVars are the variables of the FlagSet built by newTestSet.
type testVars struct {
	num       int64
	histogram bool
	db        string
	rwPercent int32
	threads   int32
	u64       uint64
	u32       uint32
	ratio     float64
	useDB     bool
}

func percentValidator(w io.Writer, name string, v int32) bool {
	if v <= 0 || v >= 100 {
		fmt.Fprintf(w, "Invalid value for --%s: %d, 0< pct <100 \n", name, v)
		return false
	}
	return true
}

func newTestSet(t testing.TB) (*FlagSet, *testVars, *bytes.Buffer, *bytes.Buffer) {
	fs := NewFlagSet("./db_bench", "7.8.3")
	var out, errb bytes.Buffer
	fs.SetOutput(&out, &errb)
	fs.LookupEnv = func(string) (string, bool) { return "", false }
	fs.ReadFile = func(name string) ([]byte, error) {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
	fs.SetFile("./tools/db_bench_tool.cc")
	v := &testVars{}
	fs.Int64Var(&v.num, "num", 1000000, "Number of key/values to place in database")
	fs.BoolVar(&v.histogram, "histogram", false, "Print histogram of operation timings")
	fs.StringVar(&v.db, "db", "", "Use the db with the following name.")
	fs.Int32Var(&v.rwPercent, "readwritepercent", 90, "read share")
	fs.Int32Var(&v.threads, "threads", 1, "")
	fs.Uint64Var(&v.u64, "cache_size_u", 8, "unsigned 64")
	fs.Uint32Var(&v.u32, "overwrite_window_size", 1, "unsigned 32")
	fs.DoubleVar(&v.ratio, "compression_ratio", 0.5, "ratio")
	fs.BoolVar(&v.useDB, "use_existing_db", false, "keep the db")
	if err := fs.SetValidator("readwritepercent", percentValidator); err != nil {
		t.Fatal(err)
	}
	return fs, v, &out, &errb
}

func exitCode(err error) int {
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	if err != nil {
		return -1
	}
	return 0
}

func TestParseValues(t *testing.T) {
	cases := []struct {
		args []string
		want func(v *testVars) bool
		rest string
	}{
		{[]string{"--num=5"}, func(v *testVars) bool { return v.num == 5 }, ""},
		{[]string{"-num=5"}, func(v *testVars) bool { return v.num == 5 }, ""},
		{[]string{"--num", "5"}, func(v *testVars) bool { return v.num == 5 }, ""},
		{[]string{"-num", "-5"}, func(v *testVars) bool { return v.num == -5 }, ""},
		{[]string{"--num=0x20"}, func(v *testVars) bool { return v.num == 32 }, ""},
		{[]string{"--num=0X1f"}, func(v *testVars) bool { return v.num == 31 }, ""},
		{[]string{"--num=010"}, func(v *testVars) bool { return v.num == 10 }, ""},
		{[]string{"--num= 7"}, func(v *testVars) bool { return v.num == 7 }, ""},
		{[]string{"--num=+7"}, func(v *testVars) bool { return v.num == 7 }, ""},
		{[]string{"--num=-9223372036854775808"}, func(v *testVars) bool { return v.num == -1<<63 }, ""},
		{[]string{"--num=10", "--num=20"}, func(v *testVars) bool { return v.num == 20 }, ""},
		{[]string{"--histogram"}, func(v *testVars) bool { return v.histogram }, ""},
		{[]string{"--histogram", "false"}, func(v *testVars) bool { return v.histogram }, "false"},
		{[]string{"--histogram=T"}, func(v *testVars) bool { return v.histogram }, ""},
		{[]string{"--histogram=yes"}, func(v *testVars) bool { return v.histogram }, ""},
		{[]string{"--histogram=1", "--nohistogram"}, func(v *testVars) bool { return !v.histogram }, ""},
		{[]string{"--histogram", "--histogram=N"}, func(v *testVars) bool { return !v.histogram }, ""},
		{[]string{"--nohistogram=true"}, func(v *testVars) bool { return !v.histogram }, ""},
		{[]string{"--use-existing-db"}, func(v *testVars) bool { return v.useDB }, ""},
		{[]string{"--db", "--num=3"}, func(v *testVars) bool { return v.db == "--num=3" && v.num == 1000000 }, ""},
		{[]string{"--db="}, func(v *testVars) bool { return v.db == "" }, ""},
		{[]string{"--db=a=b"}, func(v *testVars) bool { return v.db == "a=b" }, ""},
		{[]string{"pos", "--num=3", "-", "x"}, func(v *testVars) bool { return v.num == 3 }, "pos - x"},
		{[]string{"--", "--num=5"}, func(v *testVars) bool { return v.num == 1000000 }, "--num=5"},
		{[]string{"a", "--num", "4", "--", "b"}, func(v *testVars) bool { return v.num == 4 }, "a b"},
		{[]string{"--cache_size_u=18446744073709551615"}, func(v *testVars) bool { return v.u64 == 1<<64-1 }, ""},
		{[]string{"--cache_size_u=  "}, func(v *testVars) bool { return v.u64 == 0 }, ""},
		{[]string{"--cache_size_u=\t-1"}, func(v *testVars) bool { return v.u64 == 1<<64-1 }, ""},
		{[]string{"--overwrite_window_size=4294967295"}, func(v *testVars) bool { return v.u32 == 1<<32-1 }, ""},
		{[]string{"--compression_ratio=1e-3"}, func(v *testVars) bool { return v.ratio == 0.001 }, ""},
		{[]string{"--compression_ratio=.5"}, func(v *testVars) bool { return v.ratio == 0.5 }, ""},
		{[]string{"--compression_ratio=0x10"}, func(v *testVars) bool { return v.ratio == 16 }, ""},
		{[]string{"--compression_ratio=0x1p-2"}, func(v *testVars) bool { return v.ratio == 0.25 }, ""},
		{[]string{"--compression_ratio=-INF"}, func(v *testVars) bool { return v.ratio < -1e308 }, ""},
		{[]string{"--readwritepercent=50"}, func(v *testVars) bool { return v.rwPercent == 50 }, ""},
		{[]string{"--undefok=foo,bar", "--foo=1", "--nobar", "--foo", "x"}, func(v *testVars) bool { return true }, "x"},
		{[]string{"--foo=1", "--undefok=foo"}, func(v *testVars) bool { return true }, ""},
	}
	for _, c := range cases {
		fs, v, out, errb := newTestSet(t)
		rest, err := fs.Parse(c.args)
		if err != nil {
			t.Errorf("%q: err %v, stderr %q", c.args, err, errb)
			continue
		}
		if !c.want(v) {
			t.Errorf("%q: unexpected values %+v", c.args, *v)
		}
		if got := strings.Join(rest, " "); got != c.rest {
			t.Errorf("%q: rest %q, want %q", c.args, got, c.rest)
		}
		if out.Len() != 0 || errb.Len() != 0 {
			t.Errorf("%q: unexpected output %q %q", c.args, out, errb)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		args   []string
		stderr string
	}{
		{[]string{"--foo"}, "ERROR: unknown command line flag 'foo'\n"},
		{[]string{"--foo=3"}, "ERROR: unknown command line flag 'foo'\n"},
		{[]string{"--zed", "--abc"}, "ERROR: unknown command line flag 'abc'\nERROR: unknown command line flag 'zed'\n"},
		{[]string{"---num=3"}, "ERROR: unknown command line flag '-num'\n"},
		{[]string{"--num=abc"}, "ERROR: illegal value 'abc' specified for int64 flag 'num'\n"},
		{[]string{"--num=1k"}, "ERROR: illegal value '1k' specified for int64 flag 'num'\n"},
		{[]string{"--num="}, "ERROR: illegal value '' specified for int64 flag 'num'\n"},
		{[]string{"--num=5 "}, "ERROR: illegal value '5 ' specified for int64 flag 'num'\n"},
		{[]string{"--num=0x"}, "ERROR: illegal value '0x' specified for int64 flag 'num'\n"},
		{[]string{"--num=-0x10"}, "ERROR: illegal value '-0x10' specified for int64 flag 'num'\n"},
		{[]string{"--num=9223372036854775808"}, "ERROR: illegal value '9223372036854775808' specified for int64 flag 'num'\n"},
		{[]string{"--threads=2147483648"}, "ERROR: illegal value '2147483648' specified for int32 flag 'threads'\n"},
		{[]string{"--cache_size_u="}, "ERROR: illegal value '' specified for uint64 flag 'cache_size_u'\n"},
		{[]string{"--overwrite_window_size="}, "ERROR: illegal value '' specified for uint32 flag 'overwrite_window_size'\n"},
		{[]string{"--cache_size_u=-1"}, "ERROR: illegal value '-1' specified for uint64 flag 'cache_size_u'\n"},
		{[]string{"--cache_size_u= -1"}, "ERROR: illegal value ' -1' specified for uint64 flag 'cache_size_u'\n"},
		{[]string{"--cache_size_u=18446744073709551616"}, "ERROR: illegal value '18446744073709551616' specified for uint64 flag 'cache_size_u'\n"},
		{[]string{"--overwrite_window_size=4294967296"}, "ERROR: illegal value '4294967296' specified for uint32 flag 'overwrite_window_size'\n"},
		{[]string{"--histogram=maybe"}, "ERROR: illegal value 'maybe' specified for bool flag 'histogram'\n"},
		{[]string{"--histogram="}, "ERROR: illegal value '' specified for bool flag 'histogram'\n"},
		{[]string{"--compression_ratio=1e400"}, "ERROR: illegal value '1e400' specified for double flag 'compression_ratio'\n"},
		{[]string{"--compression_ratio=1e-400"}, "ERROR: illegal value '1e-400' specified for double flag 'compression_ratio'\n"},
		{[]string{"--compression_ratio=1e"}, "ERROR: illegal value '1e' specified for double flag 'compression_ratio'\n"},
		{[]string{"--compression_ratio=1_0"}, "ERROR: illegal value '1_0' specified for double flag 'compression_ratio'\n"},
		{[]string{"--num"}, "ERROR: flag '--num' is missing its argument; flag description: Number of key/values to place in database\n"},
		{[]string{"-num"}, "ERROR: flag '-num' is missing its argument; flag description: Number of key/values to place in database\n"},
		{[]string{"--threads"}, "ERROR: flag '--threads' is missing its argument\n"},
		{[]string{"--num", "--foo"}, "ERROR: illegal value '--foo' specified for int64 flag 'num'\n"},
		{[]string{"--zzz", "--num"}, "ERROR: flag '--num' is missing its argument; flag description: Number of key/values to place in database\nERROR: unknown command line flag 'zzz'\n"},
		{[]string{"--nonum"}, "ERROR: boolean value (nonum) specified for int64 command line flag\n"},
		{[]string{"--readwritepercent=100"}, "Invalid value for --readwritepercent: 100, 0< pct <100 \nERROR: failed validation of new value '100' for flag 'readwritepercent'\n"},
		{[]string{"--readwritepercent=0x64"}, "Invalid value for --readwritepercent: 100, 0< pct <100 \nERROR: failed validation of new value '100' for flag 'readwritepercent'\n"},
		{[]string{"--num=x", "--num=5"}, "ERROR: illegal value 'x' specified for int64 flag 'num'\n"},
		{[]string{"--undefok=foo", "--bar"}, "ERROR: unknown command line flag 'bar'\n"},
		{[]string{"--undefok=,foo"}, "ERROR: empty flaglist entry\n"},
		{[]string{"--undefok=foo,,bar"}, "ERROR: empty flaglist entry\n"},
		{[]string{"--undefok=-foo,bar"}, "ERROR: flag \"-foo,bar\" begins with '-'\n"},
		{[]string{"--flagfile=/nonexistent/x"}, "/nonexistent/x: No such file or directory\n"},
		{[]string{"--fromenv=num"}, "ERROR: FLAGS_num not found in environment\n"},
		{[]string{"--fromenv=nosuch"}, "ERROR: unknown command line flag 'nosuch' (via --fromenv or --tryfromenv)\n"},
		{[]string{"--tryfromenv=nosuch"}, "ERROR: unknown command line flag 'nosuch' (via --fromenv or --tryfromenv)\n"},
	}
	for _, c := range cases {
		fs, _, out, errb := newTestSet(t)
		_, err := fs.Parse(c.args)
		if code := exitCode(err); code != 1 {
			t.Errorf("%q: exit %d, want 1", c.args, code)
		}
		if errb.String() != c.stderr {
			t.Errorf("%q: stderr\n%q\nwant\n%q", c.args, errb.String(), c.stderr)
		}
		if out.Len() != 0 {
			t.Errorf("%q: stdout %q", c.args, out)
		}
	}
}

func TestTryFromEnvMissingIsFine(t *testing.T) {
	fs, v, _, errb := newTestSet(t)
	if _, err := fs.Parse([]string{"--tryfromenv=num,db"}); err != nil {
		t.Fatalf("err %v %q", err, errb)
	}
	if v.num != 1000000 || fs.IsSet("num") {
		t.Fatalf("num changed: %d", v.num)
	}
}

func TestFromEnv(t *testing.T) {
	fs, v, _, errb := newTestSet(t)
	env := map[string]string{"FLAGS_num": "77", "FLAGS_histogram": "yes", "FLAGS_db": "fromenv"}
	fs.LookupEnv = func(k string) (string, bool) { s, ok := env[k]; return s, ok }
	if _, err := fs.Parse([]string{"--fromenv=num,histogram"}); err != nil {
		t.Fatalf("err %v %q", err, errb)
	}
	if v.num != 77 || !v.histogram || !fs.IsSet("num") {
		t.Fatalf("got %+v", *v)
	}
	fs, _, _, errb = newTestSet(t)
	fs.LookupEnv = func(k string) (string, bool) { s, ok := env[k]; return s, ok }
	_, err := fs.Parse([]string{"--fromenv=db"})
	if exitCode(err) != 1 || errb.String() != "ERROR: infinite recursion on environment flag 'fromenv'\n" {
		t.Fatalf("got %v %q", err, errb)
	}
}

func TestFlagfile(t *testing.T) {
	dir := t.TempDir()
	inner := filepath.Join(dir, "inner")
	outer := filepath.Join(dir, "outer")
	write := func(name, text string) {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(inner, "--threads=8\n")
	write(outer, "# comment\n\n   --num=42\n-histogram\n--unknown_in_file=3\n--db\n--flagfile="+inner+"\n"+
		"other_prog\n--threads=99\ndb_b*\n--use_existing_db=true\n")
	fs, v, _, errb := newTestSet(t)
	fs.ReadFile = os.ReadFile
	if _, err := fs.Parse([]string{"--flagfile=" + outer, "--num=43"}); err != nil {
		t.Fatalf("err %v %q", err, errb)
	}
	if v.num != 43 || !v.histogram || v.threads != 8 || !v.useDB || v.db != "" {
		t.Fatalf("got %+v", *v)
	}
	// Values keep trailing white space; bad values in a file are errors.
	write(inner, "--num=5 \r\n")
	fs, _, _, errb = newTestSet(t)
	fs.ReadFile = os.ReadFile
	_, err := fs.Parse([]string{"--flagfile", inner})
	if exitCode(err) != 1 || errb.String() != "ERROR: illegal value '5 ' specified for int64 flag 'num'\n" {
		t.Fatalf("got %v %q", err, errb)
	}
	// A file naming itself stops with a clear error instead of recursing forever.
	write(inner, "--flagfile="+inner+"\n")
	fs, _, _, errb = newTestSet(t)
	fs.ReadFile = os.ReadFile
	_, err = fs.Parse([]string{"--flagfile", inner})
	if exitCode(err) != 1 || !strings.Contains(errb.String(), "nested more than") {
		t.Fatalf("got %v %q", err, errb)
	}
}

func TestVersionAndHelpExitCodes(t *testing.T) {
	fs, _, out, errb := newTestSet(t)
	_, err := fs.Parse([]string{"--version", "--foo"})
	if exitCode(err) != 0 || out.String() != "db_bench version 7.8.3\n" || errb.Len() != 0 {
		t.Fatalf("version: %v %q %q", err, out, errb)
	}
	fs, _, out, errb = newTestSet(t)
	_, err = fs.Parse([]string{"--helpshort"})
	want := "db_bench: \nUSAGE:\n./db_bench [OPTIONS]...\n\n  No modules matched: use -help\n"
	if exitCode(err) != 1 || out.String() != want || errb.Len() != 0 {
		t.Fatalf("helpshort: %v %q %q", err, out, errb)
	}
	fs, _, out, _ = newTestSet(t)
	_, err = fs.Parse([]string{"--help", "--foo"})
	if exitCode(err) != 1 || !strings.HasPrefix(out.String(), "db_bench: \nUSAGE:\n./db_bench [OPTIONS]...\n\n  Flags from ./tools/db_bench_tool.cc:\n") ||
		!strings.Contains(out.String(), "default: false\n\n\n\n  Flags from /build/gflags-QLcAqI/gflags-2.2.2/src/gflags.cc:\n") {
		t.Fatalf("help: %v %q", err, out)
	}
	fs, _, out, errb = newTestSet(t)
	_, err = fs.Parse([]string{"--helppackage"})
	if exitCode(err) != 1 || out.Len() != 0 || errb.String() != "Unable to find a package for file=db_bench" {
		t.Fatalf("helppackage: %v %q %q", err, out, errb)
	}
}

func TestHelpFormat(t *testing.T) {
	fs, _, out, _ := newTestSet(t)
	_, err := fs.Parse([]string{"--helpon=db_bench_tool", "--num=7"})
	if exitCode(err) != 1 {
		t.Fatalf("exit %v", err)
	}
	want := "db_bench: \nUSAGE:\n./db_bench [OPTIONS]...\n\n  Flags from ./tools/db_bench_tool.cc:\n" +
		"    -cache_size_u (unsigned 64) type: uint64 default: 8\n" +
		"    -compression_ratio (ratio) type: double default: 0.5\n" +
		"    -db (Use the db with the following name.) type: string default: \"\"\n" +
		"    -histogram (Print histogram of operation timings) type: bool default: false\n" +
		"    -num (Number of key/values to place in database) type: int64\n      default: 1000000 currently: 7\n" +
		"    -overwrite_window_size (unsigned 32) type: uint32 default: 1\n" +
		"    -readwritepercent (read share) type: int32 default: 90\n" +
		"    -threads () type: int32 default: 1\n" +
		"    -use_existing_db (keep the db) type: bool default: false\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

func TestDescribeWrap(t *testing.T) {
	f := &Flag{Name: "benchmarks", Type: TypeString, Default: "fillseq",
		Help: "Comma-separated list of operations to run in the specified order. Available benchmarks:\n\tfillseq       -- write N values in sequential key order"}
	got := describe(f)
	want := "    -benchmarks (Comma-separated list of operations to run in the specified\n" +
		"      order. Available benchmarks:\n" +
		"      \tfillseq       -- write N values in sequential key order) type: string\n" +
		"      default: \"fillseq\"\n"
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

func TestValidateUnsetDefault(t *testing.T) {
	fs, _, _, errb := newTestSet(t)
	bad := int32(0)
	fs.Int32Var(&bad, "deletepercent", 0, "")
	if err := fs.SetValidator("deletepercent", percentValidator); err != nil {
		t.Fatal(err)
	}
	_, err := fs.Parse(nil)
	want := "Invalid value for --deletepercent: 0, 0< pct <100 \nERROR: --deletepercent must be set on the commandline (default value fails validation)\n"
	if exitCode(err) != 1 || errb.String() != want {
		t.Fatalf("got %v %q", err, errb)
	}
}

func TestSetValidatorTypeMismatch(t *testing.T) {
	fs, _, _, _ := newTestSet(t)
	if err := fs.SetValidator("num", percentValidator); err == nil {
		t.Fatal("int32 validator accepted for an int64 flag")
	}
	if err := fs.SetValidator("nosuch", percentValidator); err == nil {
		t.Fatal("validator accepted for a missing flag")
	}
}

func TestVisitAndLookup(t *testing.T) {
	fs, _, _, _ := newTestSet(t)
	if _, err := fs.Parse([]string{"--num=1000000", "--nohistogram", "--undefok=x"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	fs.Visit(func(name, value string) { got = append(got, name+"="+value) })
	if strings.Join(got, ",") != "histogram=false,num=1000000" {
		t.Fatalf("visit %q", got)
	}
	f := fs.Lookup("compression_ratio")
	if f == nil || f.Type.String() != "double" || f.Default != "0.5" || f.Value() != "0.5" || f.IsSet() {
		t.Fatalf("lookup %+v", f)
	}
	if !fs.IsSet("undefok") || fs.IsSet("db") {
		t.Fatal("IsSet")
	}
}

func TestHelpXML(t *testing.T) {
	fs, _, out, _ := newTestSet(t)
	_, err := fs.Parse([]string{"--helpxml"})
	if exitCode(err) != 1 {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "<flag><file>./tools/db_bench_tool.cc</file><name>num</name><meaning>Number of key/values to place in database</meaning><default>1000000</default><current>1000000</current><type>int64</type></flag>\n") {
		t.Fatalf("xml %s", out)
	}
}
