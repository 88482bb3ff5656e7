// Package sampler runs a benchmark process and samples its memory once per
// interval (every EarlyInterval during the first EarlyPeriod, so that short
// passes get enough points, then every interval the caller chose), as
// ToplingDB's sample_statm_fdcache does: the child's
// /proc/PID/statm line and the page cache held by the regular files it has
// open (cachestat(2) where the kernel has it, else mincore(2) over a mapping
// of each file — Result.PageCacheMethod says which), then peak RSS from
// wait4's rusage, wall, user and system time.
//
// Sampling costs one statm read plus one stat and one cachestat(2) per open
// file per tick (BenchmarkSample measures it).
package sampler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Sample is one tick. Memory fields are in pages of PageSize bytes.
type Sample struct {
	T         time.Time
	Size      uint64
	Resident  uint64
	Shared    uint64
	Text      uint64
	Lib       uint64
	Data      uint64
	Dt        uint64
	PageCache uint64
}

// Result is what a run produced.
type Result struct {
	Start           time.Time
	Samples         []Sample
	PageSize        int
	PageCacheMethod string // "cachestat", "mincore" or "none"
	PeakRSSBytes    int64  // wait4 ru_maxrss
	Wall            time.Duration
	User            time.Duration
	Sys             time.Duration
	ExitCode        int
	TimedOut        bool
}

// EarlyInterval is the sampling interval during the first EarlyPeriod of a
// process, when the caller's interval is longer.
const (
	EarlyInterval = 100 * time.Millisecond
	EarlyPeriod   = 10 * time.Second
)

// nextInterval is the wait before the next sample, elapsed after the start.
func nextInterval(elapsed, interval time.Duration) time.Duration {
	if elapsed < EarlyPeriod && interval > EarlyInterval {
		return EarlyInterval
	}
	return interval
}

// Run starts cmd and samples it (see nextInterval) until it exits or timeout
// passes (then it is killed and TimedOut is set). The series is also written
// to series (when not nil) in sample_statm_fdcache's text layout.
func Run(cmd *exec.Cmd, interval, timeout time.Duration, series io.Writer) (*Result, error) {
	res := &Result{PageSize: os.Getpagesize(), PageCacheMethod: pageCacheMethod()}
	res.Start = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if series != nil {
		fmt.Fprintf(series, "# start_epoch=%.6f page_size=%d cachestat=%s fields=size,resident,shared,text,lib,data,dt,pagecache\n",
			float64(res.Start.UnixMicro())/1e6, res.PageSize, map[bool]string{true: "ok", false: "no"}[res.PageCacheMethod == "cachestat"])
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tick := time.NewTimer(nextInterval(0, interval))
	defer tick.Stop()
	pid := cmd.Process.Pid
	var waitErr error
loop:
	for {
		select {
		case waitErr = <-done:
			break loop
		case <-ctx.Done():
			res.TimedOut = true
			_ = cmd.Process.Kill()
			waitErr = <-done
			break loop
		case <-tick.C:
			tick.Reset(nextInterval(time.Since(res.Start), interval))
			if s, ok := sample(pid, res.PageCacheMethod); ok {
				res.Samples = append(res.Samples, s)
				if series != nil {
					fmt.Fprintf(series, "%.6f %d %d %d %d %d %d %d %d\n", float64(s.T.UnixMicro())/1e6,
						s.Size, s.Resident, s.Shared, s.Text, s.Lib, s.Data, s.Dt, s.PageCache)
				}
			}
		}
	}
	res.Wall = time.Since(res.Start)
	st := cmd.ProcessState
	if st != nil {
		res.User, res.Sys = st.UserTime(), st.SystemTime()
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			res.PeakRSSBytes = ru.Maxrss * 1024
		}
		res.ExitCode = st.ExitCode()
	}
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) {
		return res, waitErr
	}
	return res, nil
}

func sample(pid int, method string) (Sample, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return Sample{}, false
	}
	f := strings.Fields(string(b))
	if len(f) < 7 {
		return Sample{}, false
	}
	var v [7]uint64
	for i := range v {
		v[i], _ = strconv.ParseUint(f[i], 10, 64)
	}
	s := Sample{T: time.Now(), Size: v[0], Resident: v[1], Shared: v[2], Text: v[3], Lib: v[4], Data: v[5], Dt: v[6]}
	s.PageCache = openFilesPageCache(pid, method)
	return s, true
}

// pageCacheMethod probes cachestat(2) on a file of our own.
func pageCacheMethod() string {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return "none"
	}
	defer f.Close()
	var st unix.Cachestat_t
	if err := unix.Cachestat(uint(f.Fd()), &unix.CachestatRange{}, &st, 0); err == nil {
		return "cachestat"
	}
	return "mincore"
}

// openFilesPageCache sums the cached pages of the child's open regular files,
// each counted once (by device and inode).
func openFilesPageCache(pid int, method string) uint64 {
	if method == "none" {
		return 0
	}
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	type devIno struct{ dev, ino uint64 }
	seen := map[devIno]bool{}
	var total uint64
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		var st unix.Stat_t
		if unix.Stat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			continue
		}
		k := devIno{st.Dev, st.Ino}
		if seen[k] {
			continue
		}
		seen[k] = true
		total += filePageCache(p, st.Size, method)
	}
	return total
}

func filePageCache(path string, size int64, method string) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	if method == "cachestat" {
		var cs unix.Cachestat_t
		if unix.Cachestat(uint(f.Fd()), &unix.CachestatRange{}, &cs, 0) == nil {
			return cs.Cache
		}
		return 0
	}
	if size <= 0 {
		return 0
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0
	}
	defer unix.Munmap(m)
	pages := (int(size) + os.Getpagesize() - 1) / os.Getpagesize()
	vec := make([]byte, pages)
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		return 0
	}
	var n uint64
	for _, b := range vec {
		n += uint64(b & 1)
	}
	return n
}

// PeakResident is the largest sampled resident set in bytes between from and
// to (zero times mean unbounded).
func (r *Result) PeakResident(from, to time.Time) int64 {
	var peak uint64
	for _, s := range r.Samples {
		if (!from.IsZero() && s.T.Before(from)) || (!to.IsZero() && s.T.After(to)) {
			continue
		}
		peak = max(peak, s.Resident)
	}
	return int64(peak) * int64(r.PageSize)
}

// DirSize returns the apparent and allocated bytes of a directory tree
// (du -sb and du -s -B1).
func DirSize(dir string) (apparent, allocated int64, err error) {
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return nil
		}
		if !d.IsDir() {
			apparent += st.Size
		}
		allocated += st.Blocks * 512
		return nil
	})
	return apparent, allocated, err
}
