package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ENOSPCResult is what a writer did when its file system filled up, and
// what a reopen found once there was room again.
type ENOSPCResult struct {
	Engine, Config string
	Skipped        string // why the probe did not run (no root, no tmpfs)
	Writer         string // "error, exit 1", "hang", "crash: ...", "no error"
	Error          string // the error the writer reported
	CloseReturned  bool   // Close returned after the failed write
	AckedBatches   int
	Reopen         string // "ok", or how the reopen failed
	LostWrites     int    // acknowledged writes missing after the reopen
}

// enospcWorkload writes distinct keys with 1 KiB values, so the database
// only grows.
func enospcWorkload(seed int64) Workload {
	return Workload{Seed: uint64(seed), Keys: 50_000_000, ValueSize: 1024, Batch: 4}
}

// RunENOSPC mounts a tmpfs of sizeMiB under dir (it needs root and a
// kernel that lets it mount), runs a writer until a write fails, requires
// the writer to report the error and exit within limit, grows the tmpfs to
// 256 MiB and reopens, requiring every acknowledged batch. The tmpfs is
// unmounted before it returns.
func RunENOSPC(eng string, cfg Config, dir string, sizeMiB int, seed int64, limit time.Duration) ENOSPCResult {
	cfg.AutoCompact = true
	r := ENOSPCResult{Engine: eng, Config: cfg.Name()}
	if os.Geteuid() != 0 {
		r.Skipped = "needs root to mount a tmpfs"
		return r
	}
	mnt := filepath.Join(dir, "tmpfs")
	if err := os.MkdirAll(mnt, 0o755); err != nil {
		r.Skipped = err.Error()
		return r
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, fmt.Sprintf("size=%dm", sizeMiB)); err != nil {
		r.Skipped = "mount tmpfs: " + err.Error()
		return r
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	db := filepath.Join(mnt, "db")
	if err := os.Mkdir(db, 0o755); err != nil {
		r.Skipped = err.Error()
		return r
	}
	wl := enospcWorkload(seed)
	w, err := startChild(&childSpec{Role: roleWrite, Engine: eng, Dir: db, Config: cfg, Workload: wl}, limit)
	if err != nil {
		r.Skipped = err.Error()
		return r
	}
	e := w.wait()
	last := -1
	for _, l := range e.lines {
		if n, ok := parseAck(l); ok {
			r.AckedBatches++
			last = max(last, n)
		} else if s, ok := strings.CutPrefix(l, "error: "); ok {
			r.Error = s
		} else if strings.HasPrefix(l, "close: ") {
			r.CloseReturned = true
		}
	}
	switch {
	case e.timedOut:
		r.Writer = fmt.Sprintf("hang (killed after %v)", limit)
	case e.crashed(false):
		r.Writer = "crash: " + crashWords(e)
	case r.Error != "" && e.code != 0:
		r.Writer = fmt.Sprintf("error, exit %d", e.code)
	default:
		r.Writer = fmt.Sprintf("no error, exit %d", e.code)
		if e.stderr != "" {
			r.Writer += ": " + tail(e.stderr)
		}
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", syscall.MS_REMOUNT, "size=256m"); err != nil {
		r.Reopen = "not run: grow tmpfs: " + err.Error()
		return r
	}
	v, vexit := verifyChild(eng, db, cfg, wl, 0, (last+2)*wl.Batch)
	switch {
	case vexit != "":
		r.Reopen = vexit
	case v.OpenErr != "":
		r.Reopen = "open failed: " + v.OpenErr
	case v.ReadErr != "" || v.Wrong > 0:
		r.Reopen = fmt.Sprintf("read back failed: %s %v", v.ReadErr, v.Samples)
	default:
		r.Reopen = "ok"
		if acked := (last + 1) * wl.Batch; v.Prefix < acked {
			r.LostWrites = acked - v.Prefix
		}
	}
	return r
}

// RunDbBenchENOSPC runs a fillrandom with 1 KiB values and synchronous
// writes by tool t on an 8 MiB tmpfs mounted under dir, which fills it: a
// clean run exits non-zero with the error within limit. The result's Lost
// is empty; Skipped-style reasons come back as Exit "not run: ...".
func RunDbBenchENOSPC(t Tool, dir string, limit time.Duration) BadInputResult {
	if os.Geteuid() != 0 {
		return BadInputResult{Exit: "not run: needs root to mount a tmpfs"}
	}
	mnt := filepath.Join(dir, "tmpfs")
	if err := os.MkdirAll(mnt, 0o755); err != nil {
		return BadInputResult{Exit: "not run: " + err.Error()}
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=8m"); err != nil {
		return BadInputResult{Exit: "not run: mount tmpfs: " + err.Error()}
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	p := BadInput{Args: []string{"--benchmarks=fillrandom", "--num=100000", "--value_size=1024", "--sync=1", "--db=" + filepath.Join(mnt, "db")}}
	return runTool(p, t, dir, limit)
}
