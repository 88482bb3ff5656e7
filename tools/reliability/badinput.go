package reliability

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Tool is a db_bench binary to probe: C++ db_bench, or this project's with
// an --engine flag.
type Tool struct {
	Name string   // column heading
	Bin  string   // path of the binary
	Args []string // put before every probe's arguments (e.g. --engine=pebble)
}

// BadInput is a db_bench command line that must fail cleanly and lose
// nothing. It runs in a fresh sandbox directory: Setup prepares it (run
// runs the tool under test with extra arguments, for a database made by
// that tool), the command runs in Sandbox/Cwd, and Check says what of the
// sandbox's files did not survive.
type BadInput struct {
	Name  string
	Args  []string
	Cwd   string
	Setup func(sandbox string, run func(args ...string) error) error
	Check func(sandbox string) string
	// Hold, when set, names a file Setup created that the probe locks (as
	// a second process holding the database would) while the command runs.
	Hold string
}

// BadInputResult is one probe run with one tool.
type BadInputResult struct {
	Exit    string // "0", "1", "134 (SIGABRT)", "timeout"
	Message string // the line that explains the failure, if any
	Lost    string // files the run destroyed or changed ("" when none)
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// mustStay returns a Check that every named file (relative to the sandbox)
// still exists with the content "keep <name>", as Setup wrote it.
func mustStay(names ...string) func(string) string {
	return func(sb string) string {
		var lost []string
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(sb, n))
			if err != nil || string(b) != "keep "+n {
				lost = append(lost, n)
			}
		}
		return strings.Join(lost, ", ")
	}
}

// keep writes "keep <name>" into each named file.
func keep(sb string, names ...string) error {
	for _, n := range names {
		if err := writeFile(filepath.Join(sb, n), "keep "+n); err != nil {
			return err
		}
	}
	return nil
}

// dbIntact is a Check that the database in dir still has its CURRENT (or
// Pebble's manifest marker) and tables.
func dbIntact(dir string) func(string) string {
	return func(sb string) string {
		ents, err := os.ReadDir(filepath.Join(sb, dir))
		if err != nil {
			return dir + " gone"
		}
		has := map[string]bool{}
		for _, e := range ents {
			has[fileKind(e.Name())] = true
		}
		if !has[KindManifest] || !(has[KindCurrent] || has[KindMarker]) {
			return "database in " + dir + " destroyed"
		}
		return ""
	}
}

const optionsHead = "[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n"

// BadInputs is the bad-input list of issue 14.
func BadInputs() []BadInput {
	fill := []string{"--benchmarks=fillseq", "--num=1000"}
	makeDB := func(dir string) func(string, func(...string) error) error {
		return func(sb string, run func(...string) error) error {
			return run(append(fill, "--db="+filepath.Join(sb, dir))...)
		}
	}
	return []BadInput{
		{
			Name: "--db=DIR holding unrelated files and a directory",
			Args: append(fill, "--db=d"),
			Setup: func(sb string, _ func(...string) error) error {
				return keep(sb, "d/notes.txt", "d/sub/kept.txt")
			},
			Check: mustStay("d/notes.txt", "d/sub/kept.txt"),
		},
		{
			Name: "--db=.. (run in a subdirectory of a directory with files)",
			Args: append(fill, "--db=.."),
			Cwd:  "parent/child",
			Setup: func(sb string, _ func(...string) error) error {
				return keep(sb, "parent/notes.txt", "parent/child/kept.txt", "parent/other/kept.txt")
			},
			Check: mustStay("parent/notes.txt", "parent/child/kept.txt", "parent/other/kept.txt"),
		},
		{
			Name: "--db=LINK, a symlink to a directory with files",
			Args: append(fill, "--db=link"),
			Setup: func(sb string, _ func(...string) error) error {
				if err := keep(sb, "target/notes.txt"); err != nil {
					return err
				}
				return os.Symlink("target", filepath.Join(sb, "link"))
			},
			Check: mustStay("target/notes.txt"),
		},
		{
			Name:  "fill on a database another process holds (LOCK held)",
			Args:  append(fill, "--db=db"),
			Setup: makeDB("db"),
			Hold:  "db/LOCK",
			Check: dbIntact("db"),
		},
		{
			Name: "--wal_dir=FILE, a regular file",
			Args: append(fill, "--db=db", "--wal_dir=walfile"),
			Setup: func(sb string, _ func(...string) error) error {
				return keep(sb, "walfile")
			},
			Check: mustStay("walfile"),
		},
		{
			Name: "OPTIONS file with write_buffer_size=abc",
			Args: append(fill, "--db=db", "--options_file=bad.ini"),
			Setup: func(sb string, _ func(...string) error) error {
				return writeFile(filepath.Join(sb, "bad.ini"), optionsHead+"[DBOptions]\n[CFOptions \"default\"]\n  write_buffer_size=abc\n")
			},
		},
		{
			Name: "OPTIONS file with an unknown option",
			Args: append(fill, "--db=db", "--options_file=bad.ini"),
			Setup: func(sb string, _ func(...string) error) error {
				return writeFile(filepath.Join(sb, "bad.ini"), optionsHead+"[DBOptions]\n  no_such_option=1\n[CFOptions \"default\"]\n")
			},
		},
		{
			// overwrite, not a fill: db_bench skips fills on an existing database.
			Name:  "--readonly=1 with a write benchmark (overwrite)",
			Args:  []string{"--benchmarks=overwrite", "--num=1000", "--db=db", "--use_existing_db=1", "--readonly=1"},
			Setup: makeDB("db"),
			Check: dbIntact("db"),
		},
		{
			Name: "--readonly=1 on a missing database",
			Args: []string{"--benchmarks=readrandom", "--num=100", "--db=missing", "--use_existing_db=1", "--readonly=1"},
			Check: func(sb string) string {
				// db_bench makes the directory; a database in it is a write.
				if ents, _ := os.ReadDir(filepath.Join(sb, "missing")); len(ents) > 0 {
					return "created a database in missing/"
				}
				return ""
			},
		},
		{Name: "--write_buffer_size=1", Args: append(fill, "--db=db", "--write_buffer_size=1")},
		{Name: "--value_size=-1", Args: append(fill, "--db=db", "--value_size=-1")},
		{Name: "--num=-5", Args: []string{"--benchmarks=fillseq", "--num=-5", "--db=db"}},
		{
			Name: "native engine on a RocksDB-created database",
			Args: []string{"--benchmarks=readseq", "--db=db", "--use_existing_db=1"},
			Setup: func(sb string, _ func(...string) error) error {
				cmd := exec.Command("/usr/bin/db_bench", append(fill, "--db="+filepath.Join(sb, "db"))...)
				return cmd.Run()
			},
			Check: dbIntact("db"),
		},
	}
}

// errorLine matches the lines that explain a failure.
var errorLine = regexp.MustCompile(`(?i)error|invalid|corrupt|not supported|could not|unable|panic|assert|fatal|not found|no such|must be|refus|lock`)

// RunBadInput runs probe p with tool t in a fresh sandbox under dir.
func RunBadInput(p BadInput, t Tool, dir string) BadInputResult {
	return runTool(p, t, dir, 60*time.Second)
}

// runTool is RunBadInput with a time limit for each command.
func runTool(p BadInput, t Tool, dir string, limit time.Duration) BadInputResult {
	sb, err := os.MkdirTemp(dir, "probe")
	if err != nil {
		return BadInputResult{Exit: "harness: " + err.Error()}
	}
	defer os.RemoveAll(sb)
	run := func(cwd string, args ...string) (string, string) {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		cmd := exec.CommandContext(ctx, t.Bin, append(append([]string{}, t.Args...), args...)...)
		cmd.Dir = filepath.Join(sb, cwd)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return exitWords(ctx, err), out.String()
	}
	if p.Cwd != "" {
		os.MkdirAll(filepath.Join(sb, p.Cwd), 0o755)
	}
	if p.Setup != nil {
		prep := func(args ...string) error {
			if code, out := run("", args...); code != "0" {
				return fmt.Errorf("exit %s: %s", code, tail(out))
			}
			return nil
		}
		if err := p.Setup(sb, prep); err != nil {
			return BadInputResult{Exit: "setup failed: " + err.Error()}
		}
	}
	if p.Hold != "" {
		release, err := holdLock(filepath.Join(sb, p.Hold))
		if err != nil {
			return BadInputResult{Exit: "setup failed: " + err.Error()}
		}
		defer release()
	}
	code, out := run(p.Cwd, p.Args...)
	r := BadInputResult{Exit: code}
	if code != "0" {
		for _, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if errorLine.MatchString(l) && !strings.Contains(l, "Assertions are enabled") {
				r.Message = tail(l)
				break
			}
		}
		if r.Message == "" && strings.TrimSpace(out) != "" {
			r.Message = tail(strings.ReplaceAll(out, "\r", "\n"))
		}
	}
	if p.Check != nil {
		r.Lost = p.Check(sb)
	}
	return r
}

// holdLock locks path both ways a database engine may (fcntl and flock),
// as another process with the database open does.
func holdLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk); err != nil {
		f.Close()
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

func exitWords(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "timeout"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("%d (%s)", 128+int(ws.Signal()), ws.Signal())
		}
		return fmt.Sprint(ee.ExitCode())
	}
	if err != nil {
		return err.Error()
	}
	return "0"
}
