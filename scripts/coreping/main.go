// Command coreping measures how long a cache line takes to travel between
// two CPUs and back: two threads, each pinned to one CPU, take turns
// incrementing a shared counter, and the round trip is the time per two
// increments. On a virtual machine the figure follows where the host runs
// the virtual CPUs (neighbouring cores or farther apart) and changes while
// the machine runs; it is what a commit pipeline pays at every hand-off
// between its writers, so benchmark tables record it beside their rounds.
//
//	go run ./scripts/coreping [--cpus=0,1] [--trips=200000] [--trials=5]
//
// Prints one line, "coreping cpus A,B round trip N ns (min M, max X)",
// N the median of the trials. Exits 2 on bad flags, 1 when a CPU cannot be
// used.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// paddedCounter keeps the counter alone on its cache line.
type paddedCounter struct {
	_ [64]byte
	n atomic.Int64
	_ [64]byte
}

func main() {
	cpus := flag.String("cpus", "0,1", "the two CPUs, comma-separated")
	trips := flag.Int("trips", 200000, "round trips per trial")
	trials := flag.Int("trials", 5, "trials; the median is printed")
	flag.Parse()
	a, b, err := parseCPUs(*cpus)
	if err == nil && (*trips < 1 || *trials < 1) {
		err = fmt.Errorf("--trips and --trials must be positive")
	}
	if err != nil || flag.NArg() > 0 {
		if err == nil {
			err = fmt.Errorf("unexpected argument %q", flag.Arg(0))
		}
		fmt.Fprintln(os.Stderr, "coreping:", err)
		os.Exit(2)
	}
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	ns := make([]float64, *trials)
	for i := range ns {
		if ns[i], err = trial(a, b, *trips); err != nil {
			fmt.Fprintln(os.Stderr, "coreping:", err)
			os.Exit(1)
		}
	}
	slices.Sort(ns)
	fmt.Printf("coreping cpus %d,%d round trip %.0f ns (min %.0f, max %.0f)\n",
		a, b, ns[len(ns)/2], ns[0], ns[len(ns)-1])
}

// parseCPUs reads "A,B", two different CPU numbers.
func parseCPUs(s string) (a, b int, err error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return 0, 0, fmt.Errorf("--cpus=%q: want two CPUs, as 0,1", s)
	}
	if a, err = strconv.Atoi(parts[0]); err == nil {
		b, err = strconv.Atoi(parts[1])
	}
	if err != nil || a < 0 || b < 0 || a == b {
		return 0, 0, fmt.Errorf("--cpus=%q: want two different CPU numbers, as 0,1", s)
	}
	return a, b, nil
}

// trial runs trips round trips between CPUs a and b and returns the mean
// round trip in nanoseconds. Each side runs on a thread of its own that it
// never unlocks, so the runtime discards the pinned threads afterwards.
func trial(a, b, trips int) (float64, error) {
	var c paddedCounter
	pinned := make(chan error, 2)
	start := make(chan struct{})
	elapsed := make(chan time.Duration, 1)
	// side takes the turns first, first+2, ... on cpu; side 0 times the run.
	side := func(cpu int, first int64) {
		runtime.LockOSThread()
		pinned <- pin(cpu)
		if _, ok := <-start; !ok {
			return
		}
		t0 := time.Now()
		for turn := first; turn < int64(2*trips); turn += 2 {
			for c.n.Load() != turn {
			}
			c.n.Store(turn + 1)
		}
		if first == 0 {
			elapsed <- time.Since(t0)
		}
	}
	go side(a, 0)
	go side(b, 1)
	errA, errB := <-pinned, <-pinned
	if err := errors.Join(errA, errB); err != nil {
		close(start)
		return 0, err
	}
	start <- struct{}{}
	start <- struct{}{}
	return float64((<-elapsed).Nanoseconds()) / float64(trips), nil
}

// pin binds the calling thread to cpu.
func pin(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("cannot run on CPU %d: %v", cpu, err)
	}
	return nil
}
