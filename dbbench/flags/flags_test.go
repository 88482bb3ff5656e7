package flags

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/gflags"
)

// referenceDoc is the behaviour reference; tests that need it skip when it
// is not on this machine.
const referenceDoc = "/work/shared/ref/dbbench-semantics.md"

var kindNames = map[string]string{"b": "bool", "i32": "int32", "i64": "int64", "u32": "uint32", "u64": "uint64", "d": "double", "s": "string"}

type tableRow struct{ name, kind, def string }

func readTable(t *testing.T) []tableRow {
	t.Helper()
	f, err := os.Open("testdata/dbbench-7.8.3-flags.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []tableRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, rest, _ := strings.Cut(l, ":")
		kind, def, _ := strings.Cut(rest, "=")
		rows = append(rows, tableRow{name, kind, def})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// gflagsDefault turns a table default into gflags' text form.
func gflagsDefault(t *testing.T, r tableRow) string {
	if r.kind != "s" {
		return r.def
	}
	u, err := strconv.Unquote(r.def)
	if err != nil {
		t.Fatalf("%s: %v", r.name, err)
	}
	return u
}

func newSet() (*gflags.FlagSet, *Flags, *bytes.Buffer, *bytes.Buffer) {
	fs, f := NewFlagSet("./db_bench")
	var out, errb bytes.Buffer
	fs.SetOutput(&out, &errb)
	fs.LookupEnv = func(string) (string, bool) { return "", false }
	return fs, f, &out, &errb
}

func TestRegisteredFlagsMatchTable(t *testing.T) {
	rows := readTable(t)
	if len(rows) != 357 {
		t.Fatalf("table has %d flags, want 357", len(rows))
	}
	fs, _, _, _ := newSet()
	inFile := 0
	fs.VisitAll(func(f *gflags.Flag) {
		if f.File == DBBenchFile {
			inFile++
		}
	})
	if inFile != 357 {
		t.Errorf("%d flags registered under %s, want 357", inFile, DBBenchFile)
	}
	for _, r := range rows {
		f := fs.Lookup(r.name)
		if f == nil {
			t.Errorf("%s: not registered", r.name)
			continue
		}
		if f.Type.String() != kindNames[r.kind] {
			t.Errorf("%s: type %s, want %s", r.name, f.Type, kindNames[r.kind])
		}
		if want := gflagsDefault(t, r); f.Default != want {
			t.Errorf("%s: default %q, want %q", r.name, f.Default, want)
		}
		if f.Help == "" {
			t.Errorf("%s: no help", r.name)
		}
	}
	benchmarks := fs.Lookup("benchmarks").Default
	if !strings.HasPrefix(benchmarks, "fillseq,fillseqdeterministic,") || !strings.HasSuffix(benchmarks, ",timeseries,getmergeoperands,") {
		t.Errorf("benchmarks default %q", benchmarks)
	}
}

// TestTableMatchesReference checks the committed table against Appendix A
// (and the --benchmarks default against §1.3) of the reference document.
func TestTableMatchesReference(t *testing.T) {
	doc, err := os.ReadFile(referenceDoc)
	if err != nil {
		t.Skipf("reference not available: %v", err)
	}
	_, appendix, ok := strings.Cut(string(doc), "## Appendix A.")
	if !ok {
		t.Fatal("no Appendix A in the reference")
	}
	parts := strings.SplitN(appendix, "```", 3)
	if len(parts) < 3 {
		t.Fatal("no code block in Appendix A")
	}
	tok := regexp.MustCompile(`(\w+):(b|i32|i64|u32|u64|d|s)=("[^"]*"|\([^)]*\)|\S+)`)
	found := tok.FindAllStringSubmatch(parts[1], -1)
	bench := regexp.MustCompile("(?m)^  `(fillseq,fillseqdeterministic[^`]*)`").FindStringSubmatch(string(doc))
	if bench == nil {
		t.Fatal("no benchmarks default in §1.3")
	}
	rows := readTable(t)
	if len(found) != len(rows) {
		t.Fatalf("reference lists %d flags, table %d", len(found), len(rows))
	}
	for i, m := range found {
		want := tableRow{m[1], m[2], m[3]}
		if want.name == "benchmarks" {
			want.def = strconv.Quote(bench[1])
		}
		if rows[i] != want {
			t.Errorf("row %d: table %v, reference %v", i, rows[i], want)
		}
	}
}

// TestEveryFlagBindsItsField sets every db_bench flag to a non-default value
// and checks that the Flags field of the same name received it.
func TestEveryFlagBindsItsField(t *testing.T) {
	rows := readTable(t)
	fs, f, _, errb := newSet()
	var args []string
	want := map[string]any{}
	for _, r := range rows {
		switch r.kind {
		case "b":
			v := r.def != "true"
			args = append(args, "--"+r.name+"="+strconv.FormatBool(v))
			want[r.name] = v
		case "i32":
			args = append(args, "--"+r.name+"=7")
			want[r.name] = int32(7)
		case "i64":
			args = append(args, "--"+r.name+"=-7")
			want[r.name] = int64(-7)
		case "u32":
			args = append(args, "--"+r.name+"=0x7")
			want[r.name] = uint32(7)
		case "u64":
			args = append(args, "--"+r.name+"=7")
			want[r.name] = uint64(7)
		case "d":
			args = append(args, "--"+r.name+"=0.125")
			want[r.name] = 0.125
		case "s":
			args = append(args, "--"+r.name, "x")
			want[r.name] = "x"
		}
	}
	if _, err := fs.Parse(args); err != nil {
		t.Fatalf("parse: %v\n%s", err, errb)
	}
	v := reflect.ValueOf(f).Elem()
	for _, r := range rows {
		field := v.FieldByName(fieldName(r.name))
		if !field.IsValid() {
			t.Errorf("%s: no field %s", r.name, fieldName(r.name))
			continue
		}
		if got := field.Interface(); got != want[r.name] {
			t.Errorf("%s: field %v, want %v", r.name, got, want[r.name])
		}
		if !fs.IsSet(r.name) {
			t.Errorf("%s: not marked as set", r.name)
		}
	}
}

// fieldName mirrors the generator's naming rule.
func fieldName(name string) string {
	var b strings.Builder
	for _, w := range strings.Split(name, "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// goKinds is the Go kind of a field bound to a flag of each type.
var goKinds = map[gflags.Type]reflect.Kind{
	gflags.TypeBool: reflect.Bool, gflags.TypeInt32: reflect.Int32, gflags.TypeUint32: reflect.Uint32,
	gflags.TypeInt64: reflect.Int64, gflags.TypeUint64: reflect.Uint64, gflags.TypeDouble: reflect.Float64,
	gflags.TypeString: reflect.String,
}

// TestFieldNames checks the naming contract from the side of the struct:
// the fields of Flags and the db_bench and extension flags pair up one to
// one, each field named by capitalising the words of its flag's name and
// of the Go type of the flag's type. (TestEveryFlagBindsItsField goes from
// the flag table to the fields; a field no flag names, two flags whose
// names capitalise to one field, or an extension flag without its field
// would pass it.)
func TestFieldNames(t *testing.T) {
	fs, _, _, _ := newSet()
	flagOf := map[string]*gflags.Flag{}
	fs.VisitAll(func(f *gflags.Flag) {
		if f.File != DBBenchFile && f.File != ExtensionsFile {
			return
		}
		name := fieldName(f.Name)
		if other, ok := flagOf[name]; ok {
			t.Errorf("flags %s and %s both name the field %s", other.Name, f.Name, name)
		}
		flagOf[name] = f
	})
	typ := reflect.TypeOf(Flags{})
	for i := range typ.NumField() {
		field := typ.Field(i)
		f, ok := flagOf[field.Name]
		if !ok {
			t.Errorf("field %s has no flag", field.Name)
			continue
		}
		delete(flagOf, field.Name)
		if want := goKinds[f.Type]; field.Type.Kind() != want {
			t.Errorf("field %s is %s, flag --%s is %s", field.Name, field.Type, f.Name, f.Type)
		}
	}
	for name, f := range flagOf {
		t.Errorf("flag --%s has no field %s", f.Name, name)
	}
	if typ.NumField() < 357 {
		t.Errorf("Flags has %d fields, fewer than db_bench's 357 flags", typ.NumField())
	}
}

func TestDefaults(t *testing.T) {
	fs, f, _, errb := newSet()
	if _, err := fs.Parse(nil); err != nil {
		t.Fatalf("%v %s", err, errb)
	}
	if f.Num != 1000000 || f.ValueSize != 100 || f.CacheSize != 8388608 || f.CuckooHashRatio != 0.9 ||
		f.PeriodicCompactionSeconds != 18446744073709551614 || f.Memtablerep != "skip_list" || !f.ProgressReports {
		t.Errorf("db_bench defaults: %+v", f)
	}
	if f.Engine != "native" || f.ReportJson != "" || f.ReportBenchStartTime || f.CompactTargetLevel != -1 ||
		f.ScanOmitKey || f.ScanOmitValue || f.Profile != "" || f.ProfileDir != "profiles" ||
		f.ProfilesQueryLimit != 100 || f.ProfilesSeed != 570123434 || f.ProfilesQueries != -1 || f.ProfilesFullCompact {
		t.Errorf("extension defaults: %+v", f)
	}
	for _, name := range []string{"engine", "profiles_queries"} {
		if fl := fs.Lookup(name); fl == nil || fl.File != ExtensionsFile {
			t.Errorf("%s not registered as an extension", name)
		}
	}
	n := 0
	fs.Visit(func(string, string) { n++ })
	if n != 0 {
		t.Errorf("%d flags reported as set", n)
	}
}

func exitCode(err error) int {
	var ee *gflags.ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	if err != nil {
		return -1
	}
	return 0
}

func TestValidators(t *testing.T) {
	cases := []struct{ arg, stderr string }{
		{"--readwritepercent=100", "Invalid value for --readwritepercent: 100, 0< pct <100 \nERROR: failed validation of new value '100' for flag 'readwritepercent'\n"},
		{"--readwritepercent=0", "Invalid value for --readwritepercent: 0, 0< pct <100 \nERROR: failed validation of new value '0' for flag 'readwritepercent'\n"},
		{"--deletepercent=-1", "Invalid value for --deletepercent: -1, 0< pct <100 \nERROR: failed validation of new value '-1' for flag 'deletepercent'\n"},
		{"--cache_numshardbits=20", "Invalid value for --cache_numshardbits: 20, must be < 20\nERROR: failed validation of new value '20' for flag 'cache_numshardbits'\n"},
		{"--table_cache_numshardbits=0", "Invalid value for --table_cache_numshardbits: 0, must be  0 < val < 20\nERROR: failed validation of new value '0' for flag 'table_cache_numshardbits'\n"},
		{"--table_cache_numshardbits=20", "Invalid value for --table_cache_numshardbits: 20, must be  0 < val < 20\nERROR: failed validation of new value '20' for flag 'table_cache_numshardbits'\n"},
		{"--prefix_size=-1", "Invalid value for --prefix_size: -1. 0<= PrefixSize <=2000000000\nERROR: failed validation of new value '-1' for flag 'prefix_size'\n"},
		{"--prefix_size=2000000000", "Invalid value for --prefix_size: 2000000000. 0<= PrefixSize <=2000000000\nERROR: failed validation of new value '2000000000' for flag 'prefix_size'\n"},
		{"--subcompactions=4294967296", "Invalid value for --subcompactions: 4294967296, overflow\nERROR: failed validation of new value '4294967296' for flag 'subcompactions'\n"},
	}
	for _, c := range cases {
		fs, _, out, errb := newSet()
		_, err := fs.Parse([]string{c.arg})
		if exitCode(err) != 1 || errb.String() != c.stderr || out.Len() != 0 {
			t.Errorf("%s: exit %d stderr %q", c.arg, exitCode(err), errb)
		}
	}
	for _, ok := range []string{"--readwritepercent=1", "--deletepercent=99", "--cache_numshardbits=19", "--cache_numshardbits=-5",
		"--table_cache_numshardbits=19", "--prefix_size=0", "--subcompactions=4294967295"} {
		fs, _, _, errb := newSet()
		if _, err := fs.Parse([]string{ok}); err != nil {
			t.Errorf("%s: %v %s", ok, err, errb)
		}
	}
}

func TestVersionAndHelp(t *testing.T) {
	fs, _, out, _ := newSet()
	_, err := fs.Parse([]string{"--version"})
	if exitCode(err) != 0 || out.String() != "db_bench version 7.8.3\n" {
		t.Fatalf("version: %v %q", err, out)
	}
	fs, _, out, _ = newSet()
	_, err = fs.Parse([]string{"--help"})
	if exitCode(err) != 1 {
		t.Fatalf("help exit: %v", err)
	}
	text := out.String()
	for _, want := range []string{
		"db_bench: \nUSAGE:\n./db_bench [OPTIONS]...\n",
		"\n  Flags from ./tools/db_bench_tool.cc:\n",
		"    -num (Number of keys to write or read per thread) type: int64\n      default: 1000000\n",
		"    -cuckoo_hash_ratio (Fill ratio of cuckoo hash tables) type: double\n      default: 0.90000000000000002\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	fs, _, out, errb := newSet()
	_, err = fs.Parse([]string{"--helpshort"})
	if exitCode(err) != 1 || out.String() != "db_bench: \nUSAGE:\n./db_bench [OPTIONS]...\n\n  No modules matched: use -help\n" || errb.Len() != 0 {
		t.Fatalf("helpshort: %v %q %q", err, out, errb)
	}
}

func TestBenchmarkScriptStyleArgs(t *testing.T) {
	// tools/benchmark.sh passes flags this binary may not know behind --undefok.
	fs, f, _, errb := newSet()
	args := []string{"--undefok=use_blob_cache,some_future_flag", "--some_future_flag=1", "--benchmarks=fillseq",
		"--use_existing_db=0", "--sync=0", "--num", "5000", "-value_size=400", "--seed=1669779862", "--nohistogram"}
	if _, err := fs.Parse(args); err != nil {
		t.Fatalf("%v %s", err, errb)
	}
	if f.Benchmarks != "fillseq" || f.Num != 5000 || f.ValueSize != 400 || f.Seed != 1669779862 {
		t.Fatalf("%+v", f)
	}
	var got []string
	fs.Visit(func(n, v string) { got = append(got, n+"="+v) })
	if strings.Join(got, " ") != "benchmarks=fillseq histogram=false num=5000 seed=1669779862 sync=false use_existing_db=false value_size=400" {
		t.Fatalf("visit: %v", got)
	}
}

func TestDebianExtrasAccepted(t *testing.T) {
	fs, _, _, errb := newSet()
	n := 0
	fs.VisitAll(func(f *gflags.Flag) {
		if strings.Contains(f.File, "analyzer") || strings.Contains(f.File, "io_tracer") {
			n++
		}
	})
	if n != 59 {
		t.Errorf("%d analyzer flags, want 59", n)
	}
	if _, err := fs.Parse([]string{"--trace_path=/tmp/t", "--no_print", "--sample_ratio=0.5", "--io_trace_file", "f"}); err != nil {
		t.Fatalf("%v %s", err, errb)
	}
	if !fs.IsSet("trace_path") || fs.Lookup("sample_ratio").Value() != "0.5" || fs.Lookup("sample_ratio").Default != "1" {
		t.Fatal("extras not parsed")
	}
}
