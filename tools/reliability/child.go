package reliability

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/godbbench/godbbench/engine"
)

// childEnv carries a child's spec (JSON) to the re-executed binary.
const childEnv = "GODBBENCH_RELIABILITY_CHILD"

// Child roles.
const (
	roleWrite  = "write"  // apply batches From, From+1, ...; print "ack B" after each (see flushEvery)
	roleBuild  = "build"  // build the corruption matrix's database, then close
	roleVerify = "verify" // open and read back; print the Verdict as JSON
)

// childSpec is what a child does.
type childSpec struct {
	Role     string
	Engine   string
	Dir      string
	Config   Config
	Workload Workload
	From     int   // roleWrite: first batch
	Batches  int   // roleWrite: stop after this many (0: until killed or failed)
	Phases   []int // roleBuild: batch counts of the compacted, flushed and WAL-only phases
	Lo, Hi   int   // roleVerify: window, in writes
}

// RunChildIfRequested runs the child this process was started as, if any,
// and exits; otherwise it returns at once. Binaries that run probes call it
// first thing in main or TestMain.
func RunChildIfRequested() {
	spec := os.Getenv(childEnv)
	if spec == "" {
		return
	}
	var s childSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "reliability child: bad spec:", err)
		os.Exit(3)
	}
	os.Exit(runChild(&s, os.Stdout))
}

func runChild(s *childSpec, out io.Writer) int {
	op, err := engine.Lookup(s.Engine)
	if err != nil {
		fmt.Fprintln(out, "error:", err)
		return 3
	}
	db, err := op.Open(s.Dir, s.Config.options(), os.Stderr)
	if s.Role == roleVerify {
		v := Verdict{Prefix: -1}
		if err != nil {
			v.OpenErr = err.Error()
		} else {
			fmt.Fprintln(out, "opened")
			v = Verify(db, s.Workload, s.Lo, s.Hi)
			if cerr := db.Close(); cerr != nil {
				v.readErr("close", cerr)
			}
		}
		b, _ := json.Marshal(v)
		fmt.Fprintf(out, "verdict %s\n", b)
		return 0
	}
	if err != nil {
		fmt.Fprintln(out, "error: open:", err)
		return 1
	}
	bw := bufio.NewWriter(out)
	fail := func(what string, err error) int {
		fmt.Fprintf(bw, "error: %s: %v\n", what, err)
		bw.Flush()
		if cerr := db.Close(); cerr != nil {
			fmt.Fprintln(bw, "close:", cerr)
		} else {
			fmt.Fprintln(bw, "close: ok")
		}
		bw.Flush()
		return 1
	}
	write := func(from, n int, ack bool) error {
		var onAck func(int) error
		if ack {
			onAck = func(i int) error {
				fmt.Fprintf(bw, "ack %d\n", i)
				bw.Flush()
				if !s.Config.DisableWAL || (i+1)%flushEvery != 0 {
					return nil
				}
				if err := db.Flush(); err != nil {
					return fmt.Errorf("flush after batch %d: %w", i, err)
				}
				fmt.Fprintf(bw, "flushed %d\n", i)
				bw.Flush()
				return nil
			}
		}
		return applyBatches(db, s.Workload, from, n, s.Config, onAck)
	}
	switch s.Role {
	case roleWrite:
		if err := write(s.From, s.Batches, true); err != nil {
			return fail("write", err)
		}
	case roleBuild:
		next := 0
		for i, n := range s.Phases {
			if err := write(next, n, false); err != nil {
				return fail("write", err)
			}
			next += n
			var err error
			switch i {
			case 0: // to the last level
				if err = db.Flush(); err == nil {
					err = db.Compact(nil, nil, -1)
				}
			case 1: // level 0
				err = db.Flush()
			}
			if err != nil {
				return fail("flush or compact", err)
			}
		}
	default:
		fmt.Fprintln(bw, "error: unknown role", s.Role)
		bw.Flush()
		return 3
	}
	if err := db.Close(); err != nil {
		fmt.Fprintln(bw, "error: close:", err)
		bw.Flush()
		return 1
	}
	fmt.Fprintln(bw, "done")
	bw.Flush()
	return 0
}

// child is a started child process.
type child struct {
	cmd    *exec.Cmd
	lines  chan string // stdout, line by line; closed at EOF
	stderr *bytes.Buffer
	ctx    context.Context
	cancel context.CancelFunc
}

// startChild re-executes the current binary as the child s, killed after
// timeout.
func startChild(s *childSpec, timeout time.Duration) (*child, error) {
	spec, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(spec))
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	c := &child{cmd: cmd, lines: make(chan string, 1024), stderr: &bytes.Buffer{}, ctx: ctx, cancel: cancel}
	cmd.Stderr = &limitedWriter{buf: c.stderr, n: 64 << 10}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	return c, nil
}

// kill sends SIGKILL.
func (c *child) kill() { c.cmd.Process.Signal(syscall.SIGKILL) }

// exit describes how a child ended.
type exit struct {
	lines    []string // the stdout lines not yet consumed
	code     int      // exit status; -1 when killed by a signal
	signal   string   // the signal that killed it, if any
	timedOut bool
	stderr   string
}

// crashed reports whether the child died of a signal the parent did not
// send, a Go panic or fatal error, rather than exiting by itself.
func (e *exit) crashed(killedByUs bool) bool {
	if e.timedOut {
		return false
	}
	if e.signal != "" && !killedByUs {
		return true
	}
	return strings.Contains(e.stderr, "panic:") || strings.Contains(e.stderr, "fatal error:") ||
		strings.Contains(e.stderr, "SIGBUS") || strings.Contains(e.stderr, "SIGSEGV") ||
		strings.Contains(e.stderr, "SIGABRT")
}

// wait drains stdout and waits for the child to end.
func (c *child) wait() *exit {
	var e exit
	for l := range c.lines {
		e.lines = append(e.lines, l)
	}
	err := c.cmd.Wait()
	e.timedOut = errors.Is(c.ctx.Err(), context.DeadlineExceeded)
	c.cancel()
	e.stderr = c.stderr.String()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			e.code, e.signal = -1, ws.Signal().String()
		} else {
			e.code = ee.ExitCode()
		}
	} else if err != nil {
		e.code = -1
		e.signal = err.Error()
	}
	return &e
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	buf *bytes.Buffer
	n   int
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if room := w.n - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// tail returns the last line of s that is not empty, cut to 200 bytes.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 200 {
		l = l[:200] + "..."
	}
	return l
}

// flushEvery is how many batches a writer with the WAL disabled applies
// between the flushes that make them durable; after each such flush it
// prints "flushed B", B the batch before it.
const flushEvery = 50

// applyBatches applies batches from, from+1, ... (n of them; n = 0: until
// a write or ack fails) with cfg's write options, calling ack, if set,
// after each is acknowledged.
func applyBatches(db engine.DB, wl Workload, from, n int, cfg Config, ack func(batch int) error) error {
	wo := &engine.WriteOptions{Sync: cfg.Sync, DisableWAL: cfg.DisableWAL}
	b := db.NewBatch()
	defer b.Close()
	for i := from; n == 0 || i < from+n; i++ {
		b.Reset()
		for w := i * wl.Batch; w < (i+1)*wl.Batch; w++ {
			if k, del := wl.Op(w); del {
				b.Delete(wl.Key(k))
			} else {
				b.Put(wl.Key(k), wl.Value(w))
			}
		}
		if err := db.Apply(b, wo); err != nil {
			return fmt.Errorf("batch %d: %w", i, err)
		}
		if ack != nil {
			if err := ack(i); err != nil {
				return err
			}
		}
	}
	return nil
}
