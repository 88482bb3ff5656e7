package reliability

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"time"
)

// CrashLoop describes a crash-and-verify run.
type CrashLoop struct {
	Engine string
	Config Config // AutoCompact is forced on: kills must also land in compactions
	Cycles int
	Seed   int64
	Dir    string // an empty directory the loop may fill
}

// CrashResult is what a crash loop saw.
type CrashResult struct {
	Engine, Config string
	Cycles         int // kill-and-reopen cycles run
	KilledOpening  int // cycles whose writer was killed before its first acknowledgement
	AckedBatches   int // batches acknowledged over the run
	// LostWrites counts acknowledged writes (with DisableWAL, flushed ones)
	// missing after a reopen, summed over cycles.
	LostWrites int
	// UnflushedLost counts, with DisableWAL, the acknowledged writes no
	// completed flush had made durable that a kill dropped, which the
	// WAL's absence allows (summed over cycles).
	UnflushedLost int
	Failures      []string // reopen errors, wrong data, writer errors, crashes, hangs
}

// maxFailures bounds the failures a result keeps.
const maxFailures = 10

func (r *CrashResult) fail(format string, args ...any) {
	if len(r.Failures) < maxFailures {
		r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
	}
}

// RunCrashLoop runs cl.Cycles cycles: start a writer at the next batch,
// SIGKILL it (one cycle in eight within 30 ms of its start, so during open
// and WAL recovery; otherwise after 1-600 acknowledgements or 1.5 s), read
// every acknowledgement it printed, and reopen in a verifier that requires
// the state after a whole number of batches no earlier than the last
// acknowledged one (a non-synced write survives a process kill once the
// engine has handed it to the OS, which is what RocksDB promises). With
// Config.DisableWAL the writer flushes after every flushEvery batches and
// only the batches before its last completed flush must survive; the
// state found, whole batches still, may end anywhere after them, and the
// next writer starts from it.
func RunCrashLoop(cl CrashLoop) CrashResult {
	cfg := cl.Config
	cfg.AutoCompact = true
	res := CrashResult{Engine: cl.Engine, Config: cfg.Name()}
	rng := rand.New(rand.NewSource(cl.Seed))
	wl := DefaultWorkload(uint64(cl.Seed))
	acked := 0   // batches acknowledged so far: the next writer starts there
	durable := 0 // with DisableWAL, batches a completed flush made durable
	for cycle := 0; cycle < cl.Cycles; cycle++ {
		res.Cycles++
		w, err := startChild(&childSpec{Role: roleWrite, Engine: cl.Engine, Dir: cl.Dir, Config: cfg, Workload: wl, From: acked}, 60*time.Second)
		if err != nil {
			res.fail("cycle %d: start writer: %v", cycle, err)
			return res
		}
		early := rng.Intn(8) == 0
		var deadline <-chan time.Time
		stopAfter := 1 + rng.Intn(600)
		if early {
			deadline = time.After(time.Duration(rng.Intn(30)) * time.Millisecond)
		} else {
			deadline = time.After(1500 * time.Millisecond)
		}
		seen, last, errLine := 0, acked-1, ""
		note := func(l string) {
			if n, isAck := parseAck(l); isAck {
				seen++
				last = max(last, n)
			} else if n, isFlush := parseFlushed(l); isFlush {
				durable = max(durable, n+1)
			} else if strings.HasPrefix(l, "error:") {
				errLine = l
			}
		}
	read:
		for {
			select {
			case l, ok := <-w.lines:
				if !ok {
					break read
				}
				note(l)
				if !early && seen >= stopAfter {
					break read
				}
			case <-deadline:
				break read
			}
		}
		w.kill()
		e := w.wait()
		for _, l := range e.lines {
			note(l)
		}
		switch {
		case errLine != "":
			res.fail("cycle %d: writer: %s", cycle, errLine)
		case e.crashed(true):
			res.fail("cycle %d: writer crashed: %s", cycle, tail(e.stderr))
		case e.timedOut:
			res.fail("cycle %d: writer hung", cycle)
		}
		if seen == 0 {
			res.KilledOpening++
		}
		res.AckedBatches += seen
		acked = max(acked, last+1)
		v, vexit := verifyChild(cl.Engine, cl.Dir, cfg, wl, 0, (acked+1)*wl.Batch)
		if vexit != "" {
			res.fail("cycle %d: reopen: %s", cycle, vexit)
			return res
		}
		switch {
		case v.OpenErr != "":
			res.fail("cycle %d: reopen: %s", cycle, v.OpenErr)
			return res
		case v.ReadErr != "" || v.Wrong > 0:
			res.fail("cycle %d: read back: %s %v", cycle, v.ReadErr, v.Samples)
			return res
		case v.Prefix < durable*wl.Batch:
			res.LostWrites += durable*wl.Batch - v.Prefix
			res.fail("cycle %d: %d acknowledged writes lost (flushed, WAL disabled)", cycle, durable*wl.Batch-v.Prefix)
			acked, durable = v.Prefix/wl.Batch, v.Prefix/wl.Batch
		case cfg.DisableWAL && v.Prefix < acked*wl.Batch:
			res.UnflushedLost += acked*wl.Batch - v.Prefix
			acked = v.Prefix / wl.Batch
		case v.Prefix < acked*wl.Batch:
			res.LostWrites += acked*wl.Batch - v.Prefix
			res.fail("cycle %d: %d acknowledged writes lost", cycle, acked*wl.Batch-v.Prefix)
			// Go on from what the database holds, so later cycles check
			// their own writes rather than this loss again.
			acked = v.Prefix / wl.Batch
		}
	}
	return res
}

func parseAck(l string) (int, bool) { return parseBatchLine(l, "ack ") }

func parseFlushed(l string) (int, bool) { return parseBatchLine(l, "flushed ") }

// parseBatchLine reads the batch number of a writer's line "<prefix>B".
func parseBatchLine(l, prefix string) (int, bool) {
	s, ok := strings.CutPrefix(l, prefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// verifyChild runs a verifier on dir and returns its verdict, or a
// description of how it died (crash, hang, no verdict).
func verifyChild(eng, dir string, cfg Config, wl Workload, lo, hi int) (Verdict, string) {
	v, _, vexit := verifyChildOpened(eng, dir, cfg, wl, lo, hi)
	return v, vexit
}

// verifyChildOpened is verifyChild that also says whether the open
// succeeded, which a crash or hang afterwards does not undo.
func verifyChildOpened(eng, dir string, cfg Config, wl Workload, lo, hi int) (v Verdict, opened bool, vexit string) {
	v, vexit = verifyChildRun(eng, dir, cfg, wl, lo, hi, &opened)
	return v, opened, vexit
}

func verifyChildRun(eng, dir string, cfg Config, wl Workload, lo, hi int, opened *bool) (Verdict, string) {
	c, err := startChild(&childSpec{Role: roleVerify, Engine: eng, Dir: dir, Config: cfg, Workload: wl, Lo: lo, Hi: hi}, 60*time.Second)
	if err != nil {
		return Verdict{}, "start verifier: " + err.Error()
	}
	e := c.wait()
	for _, l := range e.lines {
		*opened = *opened || l == "opened"
	}
	switch {
	case e.timedOut:
		return Verdict{}, "hang (killed after 60 s)"
	case e.crashed(false):
		return Verdict{}, "crash: " + crashWords(e)
	}
	for _, l := range e.lines {
		if s, ok := strings.CutPrefix(l, "verdict "); ok {
			var v Verdict
			if err := json.Unmarshal([]byte(s), &v); err != nil {
				return Verdict{}, "bad verdict: " + err.Error()
			}
			return v, ""
		}
	}
	return Verdict{}, fmt.Sprintf("crash: no verdict (exit %d): %s", e.code, crashWords(e))
}

func crashWords(e *exit) string {
	if e.signal != "" {
		return "signal " + e.signal + " " + tail(e.stderr)
	}
	for _, l := range strings.Split(e.stderr, "\n") {
		if strings.Contains(l, "panic:") || strings.Contains(l, "fatal error:") || strings.Contains(l, "signal") ||
			strings.Contains(l, "Assertion") || strings.Contains(l, "SIGABRT") {
			return tail(l)
		}
	}
	return tail(strings.SplitN(strings.TrimSpace(e.stderr), "\n", 2)[0])
}
