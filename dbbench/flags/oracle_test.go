package flags

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The oracle tests run the real C++ db_bench (Debian rocksdb-tools 7.8.3)
// when it is installed and compare its parsing with ours. Every command line
// either fails to parse or carries --help, so db_bench never runs a benchmark.

type outcome struct {
	stdout, stderr string
	code           int
}

func realDBBench(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("db_bench")
	if err != nil {
		t.Skip("db_bench not installed")
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil || string(out) != "db_bench version 7.8.3\n" {
		t.Skipf("db_bench is not 7.8.3: %q %v", out, err)
	}
	return p
}

func runReal(t *testing.T, bin string, args []string, env map[string]string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TEST_TMPDIR=" + cmd.Dir}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("db_bench %q: %v", args, err)
	}
	return outcome{stdout.String(), stderr.String(), code}
}

func runOurs(bin string, args []string, env map[string]string) outcome {
	fs, _ := NewFlagSet(bin)
	var stdout, stderr bytes.Buffer
	fs.SetOutput(&stdout, &stderr)
	fs.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	_, err := fs.Parse(args)
	return outcome{stdout.String(), stderr.String(), exitCode(err)}
}

// helpEntry is what --help shows for one flag, apart from its description.
type helpEntry struct {
	file, typ, def, cur string
}

var entryTail = regexp.MustCompile(`type: (\S+) default: (.*?)(?: currently: (.*))?$`)

// parseHelp reads --help output into entries by flag name. An entry is a
// "    -name (" line plus its 6-space continuation lines.
func parseHelp(t *testing.T, text string) map[string]helpEntry {
	t.Helper()
	out := make(map[string]helpEntry)
	file := ""
	var cur []string
	flush := func() {
		if cur == nil {
			return
		}
		joined := strings.Join(cur, " ")
		name, _, _ := strings.Cut(strings.TrimPrefix(cur[0], "    -"), " (")
		m := entryTail.FindStringSubmatch(joined)
		if m == nil {
			t.Fatalf("cannot read help entry %q", joined)
		}
		out[name] = helpEntry{file, m[1], m[2], m[3]}
		cur = nil
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "    -"):
			flush()
			cur = []string{line}
		case strings.HasPrefix(line, "      ") && cur != nil:
			cur = append(cur, strings.TrimPrefix(line, "      "))
		default:
			flush()
			if f, ok := strings.CutPrefix(line, "  Flags from "); ok {
				file = strings.TrimSuffix(f, ":")
			}
		}
	}
	flush()
	return out
}

// TestOracleHelpSkeleton compares every flag's file, type and default with
// the real --help listing.
func TestOracleHelpSkeleton(t *testing.T) {
	bin := realDBBench(t)
	real := runReal(t, bin, []string{"--help"}, nil)
	ours := runOurs(bin, []string{"--help"}, nil)
	if real.code != 1 || ours.code != 1 {
		t.Fatalf("exit codes %d %d", real.code, ours.code)
	}
	if !strings.HasPrefix(ours.stdout, "db_bench: \nUSAGE:\n"+bin+" [OPTIONS]...\n") {
		t.Errorf("usage line: %q", ours.stdout[:60])
	}
	re, oe := parseHelp(t, real.stdout), parseHelp(t, ours.stdout)
	if len(re) != 430 {
		t.Errorf("real help lists %d flags", len(re))
	}
	for name, r := range re {
		o, ok := oe[name]
		if !ok {
			t.Errorf("%s: missing", name)
			continue
		}
		if o != r {
			t.Errorf("%s: ours %+v, real %+v", name, o, r)
		}
	}
	for name, o := range oe {
		if _, ok := re[name]; !ok && o.file != ExtensionsFile {
			t.Errorf("%s: not in the real db_bench", name)
		}
	}
	// Same order of files and the same separators between them.
	fileLines := func(s string) string {
		var b strings.Builder
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "  Flags from ") || l == "" {
				b.WriteString(l + "\n")
			}
		}
		return b.String()
	}
	wantFiles := strings.Replace(fileLines(real.stdout), "\n  Flags from ./tools/io_tracer_parser_tool.cc:",
		"\n  Flags from "+ExtensionsFile+":\n\n  Flags from ./tools/io_tracer_parser_tool.cc:", 1)
	if got := fileLines(ours.stdout); got != wantFiles {
		t.Errorf("file sections:\n%s\nwant\n%s", got, wantFiles)
	}
}

// TestOracleValues compares the parsed ("currently") values and stderr of
// command lines that parse.
func TestOracleValues(t *testing.T) {
	bin := realDBBench(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inner := write("inner", "--threads=8\n")
	sections := write("sections", "# c\n\n  --num=42\n-histogram\n--no_such_flag=3\n--db\n--flagfile="+inner+"\n"+
		"other_prog\n--seed=99\ndb_b* x\n--use_existing_db=true\n")
	crlf := write("crlf", "--num=5\r\n--value_size=7\r\n")
	globs := write("globs", "/usr/bin/db_*\n--num=9\n*/db_bench\n--threads=4\nother\n--seed=5\n\n  db_[a-c]ench z\n--key_size=20\n")
	env := map[string]string{"FLAGS_num": "77", "FLAGS_histogram": "yes", "FLAGS_db": "/x y"}
	cases := [][]string{
		{"--num=0x20"}, {"--num=010"}, {"--num= 7"}, {"--num=+7"}, {"--num=\t-7"},
		{"--histogram", "false"}, {"--histogram=T"}, {"--histogram=yes"}, {"--nohistogram"}, {"--nohistogram=1"},
		{"--use-existing-db"}, {"-db", "--num=3"}, {"--cache_size=-1"},
		{"--periodic_compaction_seconds=\t-1"}, {"--periodic_compaction_seconds=0xFFFFFFFFFFFFFFFF"},
		{"--compression_ratio=0x1p-2"}, {"--compression_ratio=1e-3"}, {"--compression_ratio=-inf"},
		{"--compression_ratio=nan"}, {"--compression_ratio=0x10"}, {"--compression_ratio= 2.5"},
		{"--compression_ratio=2.2250738585072014e-308"}, {"--compression_ratio=1E+2"}, {"--compression_ratio=5."},
		{"--overwrite_window_size=4294967295"}, {"--overwrite_window_size=0x10"},
		{"--num", "5", "pos", "--", "--threads=3"}, {"pos", "--num", "6"},
		{"--undefok=foo,bar", "--foo=1", "--nobar", "--foo", "x"}, {"--value_size=-0"},
		{"--seed=-9223372036854775808"}, {"--benchmarks="}, {"--num=1", "--num=2"}, {"--readwritepercent=0x32"},
		{"--flagfile=" + sections, "--num=43"}, {"--flagfile", crlf}, {"--flagfile=" + globs + "," + inner}, {"--fromenv=num,histogram,db"},
		{"--tryfromenv=num,threads"}, {"--wal_size_limit_MB=3"}, {"--trace_path=/t", "--no_print"},
		{"---", "--num=3"}, {"-", "--num=4"}, {"--subcompactions=4294967295"},
	}
	for _, args := range cases {
		full := append([]string{"--help"}, args...) // before any "--"
		real := runReal(t, bin, full, env)
		ours := runOurs(bin, full, env)
		if real.code != ours.code || real.stderr != ours.stderr {
			t.Errorf("%q: real exit %d stderr %q; ours exit %d stderr %q", args, real.code, real.stderr, ours.code, ours.stderr)
			continue
		}
		re, oe := parseHelp(t, real.stdout), parseHelp(t, ours.stdout)
		for name, r := range re {
			if o := oe[name]; o.cur != r.cur {
				t.Errorf("%q: %s currently %q, real %q", args, name, o.cur, r.cur)
			}
		}
	}
}

var flagDescription = regexp.MustCompile(`(?s); flag description: .*?(\nERROR: |\n\z)`)

// normalize drops what legitimately differs: flag descriptions (ours are
// our own words) quoted in "missing its argument" errors, and help text
// beyond the usage line.
func normalize(o outcome) outcome {
	o.stderr = flagDescription.ReplaceAllString(o.stderr, "; flag description: <help>$1")
	if i := strings.Index(o.stdout, " [OPTIONS]...\n"); i >= 0 {
		o.stdout = o.stdout[:i]
	}
	return o
}

// TestOracleErrors compares stderr and exit codes of command lines that fail.
func TestOracleErrors(t *testing.T) {
	bin := realDBBench(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("--num=5 \n--threads=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lateCR := filepath.Join(dir, "latecr") // a '\r' anywhere ends the first line there
	if err := os.WriteFile(lateCR, []byte("--num=5\n--threads=3\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := [][]string{
		{"--foo"}, {"--foo=3"}, {"--zed", "--abc"}, {"---num=3"}, {"--no-histogram"},
		{"--num=abc"}, {"--num=1k"}, {"--num="}, {"--num=5 "}, {"--num=0x"}, {"--num=-0x10"}, {"--num= 0x10"},
		{"--num=9223372036854775808"}, {"--threads=2147483648"}, {"--threads=1.0"},
		{"--cache_size=9223372036854775808"}, {"--periodic_compaction_seconds=-1"}, {"--periodic_compaction_seconds="}, {"--overwrite_window_size="},
		{"--periodic_compaction_seconds= -1"}, {"--periodic_compaction_seconds=18446744073709551616"},
		{"--overwrite_window_size=4294967296"}, {"--overwrite_window_size=\t-1"},
		{"--histogram=maybe"}, {"--histogram="}, {"--histogram=2"},
		{"--compression_ratio=1e400"}, {"--compression_ratio=1e-400"}, {"--compression_ratio=1e"},
		{"--compression_ratio=1_0"}, {"--compression_ratio="}, {"--compression_ratio=0x"}, {"--compression_ratio=4e-320"},
		{"--num"}, {"-num"}, {"--benchmarks"}, {"--num", "--foo"}, {"--zzz", "--num"}, {"--nonum"}, {"--nodb=x"},
		{"--readwritepercent=100"}, {"--readwritepercent=0x64"}, {"--deletepercent=0"},
		{"--cache_numshardbits=20"}, {"--table_cache_numshardbits=0"}, {"--prefix_size=-1"},
		{"--subcompactions=4294967296"}, {"--subcompactions=\t-1"},
		{"--num=x", "--num=5"}, {"--undefok=foo", "--bar"}, {"--undefok=,foo"}, {"--undefok=foo,,bar"},
		{"--undefok=-foo,bar"}, {"--flagfile=" + filepath.Join(dir, "missing")}, {"--flagfile=" + bad},
		{"--fromenv=num"}, {"--fromenv=nosuch"}, {"--tryfromenv=nosuch"}, {"--fromenv=,"},
		{"--readwritepercent=100", "--help"}, {"--foo", "--version"}, {"--flagfile=" + lateCR},
		{"--helppackage"}, {"--helpshort"}, {"--helpmatch=zzz"}, {"--version"}, {"--help=maybe"},
	}
	for _, args := range cases {
		real := normalize(runReal(t, bin, args, nil))
		ours := normalize(runOurs(bin, args, nil))
		if real != ours {
			t.Errorf("%q:\nreal exit %d stdout %.80q stderr %q\nours exit %d stdout %.80q stderr %q",
				args, real.code, real.stdout, real.stderr, ours.code, ours.stdout, ours.stderr)
		}
	}
}

// TestOracleHelpVariants compares the flag sets shown by the restricted
// help flags.
func TestOracleHelpVariants(t *testing.T) {
	bin := realDBBench(t)
	for _, arg := range []string{"--helpon=db_bench_tool", "--helpon=gflags", "--helpmatch=trace", "--helpmatch=tools/", "--helpfull"} {
		real := runReal(t, bin, []string{arg}, nil)
		ours := runOurs(bin, []string{arg}, nil)
		if real.code != ours.code || real.stderr != ours.stderr {
			t.Errorf("%s: exit %d/%d stderr %q/%q", arg, real.code, ours.code, real.stderr, ours.stderr)
		}
		re, oe := parseHelp(t, real.stdout), parseHelp(t, ours.stdout)
		for name, o := range oe {
			if o.file == ExtensionsFile {
				delete(oe, name)
			}
		}
		if len(re) == 0 || len(re) != len(oe) {
			t.Errorf("%s: %d flags shown, real %d", arg, len(oe), len(re))
		}
		for name, r := range re {
			if oe[name] != r {
				t.Errorf("%s: %s ours %+v real %+v", arg, name, oe[name], r)
			}
		}
	}
}

// TestOracleRandomValues gives the same generated text to one flag of each
// type and compares which values db_bench accepts and what they become.
func TestOracleRandomValues(t *testing.T) {
	bin := realDBBench(t)
	pieces := []string{"0", "1", "9", "x", "X", "0x", "-", "+", " ", "\t", ".", "e", "E", "p", "f", "a",
		"inf", "nan", "1e308", "99999999999", "4294967296", "2147483648", "18446744073709551615", "t", "yes", "N", "_",
		"0X", "(", ")", "inity", "1e-310", "\n", "ff", "P"}
	state := uint64(12345)
	next := func() int { // xorshift: deterministic and independent of math/rand
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		return int(state % uint64(len(pieces)))
	}
	flags := []string{"num", "periodic_compaction_seconds", "overwrite_window_size", "threads", "compression_ratio", "histogram"}
	for c := 0; c < oracleRandomCases; c++ {
		var b strings.Builder
		for n := 1 + next()%4; n > 0; n-- {
			b.WriteString(pieces[next()])
		}
		text := b.String()
		args := []string{"--help"}
		for _, f := range flags {
			args = append(args, "--"+f+"="+text)
		}
		real, ours := runReal(t, bin, args, nil), runOurs(bin, args, nil)
		if real.code != ours.code || real.stderr != ours.stderr {
			t.Errorf("%q: exit %d/%d stderr %q/%q", text, real.code, ours.code, real.stderr, ours.stderr)
			continue
		}
		re, oe := parseHelp(t, real.stdout), parseHelp(t, ours.stdout)
		for _, f := range flags {
			if re[f].cur != oe[f].cur {
				t.Errorf("%q: %s real %q ours %q", text, f, re[f].cur, oe[f].cur)
			}
		}
	}
}

// oracleRandomCases keeps the default run near two seconds.
var oracleRandomCases = 120
