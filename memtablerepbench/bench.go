package memtablerepbench

import (
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/cxxrand"
	"github.com/godbbench/godbbench/memtable"
)

// Clock returns monotonic nanoseconds; tests pass a fake one.
type Clock func() int64

// Main runs memtablerep_bench with args (without the program name) and
// returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	start := time.Now()
	return MainClock(args, func() int64 { return int64(time.Since(start)) }, stdout, stderr)
}

// MainClock is Main timing every benchmark by clock instead of wall time
// (scripts/memtablecpu passes the process's CPU time).
func MainClock(args []string, clock Clock, stdout, stderr io.Writer) int {
	f, code, done := parseFlags(args, stdout, stderr)
	if done {
		return code
	}
	return Run(f, clock, stdout, stderr)
}

// runner holds the state the C++ main shares between benchmarks.
type runner struct {
	f       *Flags
	clock   Clock
	out     io.Writer
	factory memtable.Factory
	cfg     memtable.Config
	rep     memtable.Rep
	seq     atomic.Uint64 // the shared sequence counter
	rng     *cxxrand.MT64
	values  []byte
}

// result is what a benchmark's threads add up to.
type result struct {
	bytesWritten, bytesRead, readHits uint64
	err                               error
}

func (r *result) add(o result) {
	r.bytesWritten += o.bytesWritten
	r.bytesRead += o.bytesRead
	r.readHits += o.readHits
	if r.err == nil {
		r.err = o.err
	}
}

// Run executes the benchmarks in f.Benchmarks and returns the exit code.
func Run(f *Flags, clock Clock, stdout, stderr io.Writer) int {
	factory, cfg, err := lookupRep(f)
	if err != nil {
		fmt.Fprintf(stdout, "Unknown memtablerep: %v\n", err)
		return 1
	}
	// --write_buffer_size is not passed on: the C++ tool only hands it to a
	// WriteBufferManager that nothing consults.
	if f.NumThreads < 1 || f.NumOperations < 0 || f.NumScans < 0 || f.ItemSize < 0 {
		fmt.Fprintln(stderr, "memtablerep_bench: --num_threads must be >= 1 and --num_operations, --num_scans, --item_size >= 0")
		return 1
	}
	r := &runner{f: f, clock: clock, out: stdout, factory: factory, cfg: cfg, rng: cxxrand.NewMT64(uint64(f.Seed))}
	r.values = randomString(cxxrand.NewParkMiller(301), max(1<<20, int(f.ItemSize)))
	n := uint64(f.NumOperations)
	for _, name := range strings.Split(f.Benchmarks, ",") {
		var keys *keyGenerator
		switch name {
		case "fillseq", "fillrandom", "readwrite", "seqreadwrite":
			r.rep = nil
			runtime.GC()
			rep, err := r.factory(r.cfg)
			if err != nil {
				fmt.Fprintf(stderr, "memtablerep_bench: cannot create memtable %s: %v\n", f.Memtablerep, err)
				return 1
			}
			r.rep = rep
			r.seq.Store(0)
		case "readrandom", "readseq":
			if r.rep == nil {
				fmt.Fprintf(stderr, "memtablerep_bench: %s needs a memtable: run fillseq, fillrandom, readwrite or seqreadwrite before it\n", name)
				return 1
			}
			runtime.GC()
		default:
			fmt.Fprintf(stdout, "WARNING: skipping unknown benchmark '%s\n", name)
			continue
		}
		switch name {
		case "fillseq", "readseq":
			keys = newKeyGenerator(r.rng, keysSequential, n, f.Seed)
		case "fillrandom":
			keys = newKeyGenerator(r.rng, keysUniqueRandom, n, f.Seed)
		default:
			keys = newKeyGenerator(r.rng, keysRandom, n, f.Seed)
		}
		fmt.Fprintf(stdout, "Running %s\n", name)
		if err := r.run(name, keys); err != nil {
			fmt.Fprintf(stderr, "memtablerep_bench: %s: %v\n", name, err)
			return 1
		}
		usage := r.rep.ApproximateMemoryUsage()
		mib := formatDouble(float64(usage) / (1 << 20))
		fmt.Fprintf(stdout, "ApproximateMemoryUsage: %d bytes (%s MiB), arena: %d bytes (%s MiB)\n", usage, mib, usage, mib)
	}
	return 0
}

// run times one benchmark and prints its block.
func (r *runner) run(name string, keys *keyGenerator) error {
	f := r.f
	n := uint64(f.NumOperations)
	threads := int(f.NumThreads)
	var writeOps, readOps uint64
	var res result
	var start int64
	switch name {
	case "fillseq", "fillrandom":
		threads, writeOps = 1, n
		start = r.clock()
		res = r.fill(newKeyStream(keys), n, nil)
	case "readrandom":
		readOps = n / uint64(threads)
		start = r.clock()
		res = r.parallel(threads, func(int) result { return r.readRandom(newKeyStream(keys), readOps) })
	case "readseq":
		readOps = uint64(f.NumScans)
		start = r.clock()
		res = r.parallel(threads, func(int) result { return r.readSeq(readOps) })
	case "readwrite", "seqreadwrite":
		writeOps = n
		if threads > 1 {
			readOps = n / uint64(threads-1)
		}
		var done atomic.Int32
		start = r.clock()
		res = r.parallel(threads, func(t int) result {
			if t == 0 {
				return r.fill(newKeyStream(keys), 0, func() bool { return done.Load() < int32(threads-1) })
			}
			defer done.Add(1)
			if name == "readwrite" {
				return r.readRandom(newKeyStream(keys), readOps)
			}
			return r.readSeq(readOps)
		})
	}
	elapsedNanos := r.clock() - start
	if res.err != nil {
		return res.err
	}
	fmt.Fprintf(r.out, "Number of threads: %d\n", threads)
	if name == "readrandom" {
		fmt.Fprintf(r.out, "read hit%%: %s\n", formatDouble(float64(res.readHits)/float64(f.NumOperations)*100))
	}
	elapsed := float64(uint64(elapsedNanos) / 1000) // whole microseconds, as StopWatchNano/1000
	fmt.Fprintf(r.out, "Elapsed time: %d us\n", int32(elapsed))
	if res.bytesWritten > 0 {
		mib := float64(res.bytesWritten) / (1 << 20)
		fmt.Fprintf(r.out, "Total bytes written: %s MiB\n", formatDouble(mib))
		fmt.Fprintf(r.out, "Write throughput: %s MiB/s\n", formatDouble(mib/(elapsed/1e6)))
		fmt.Fprintf(r.out, "write us/op: %s\n", formatDouble(elapsed/float64(writeOps)))
	}
	if res.bytesRead > 0 {
		mib := float64(res.bytesRead) / (1 << 20)
		fmt.Fprintf(r.out, "Total bytes read: %s MiB\n", formatDouble(mib))
		fmt.Fprintf(r.out, "Read throughput: %s MiB/s\n", formatDouble(mib/(elapsed/1e6)))
		fmt.Fprintf(r.out, "read us/op: %s\n", formatDouble(elapsed/float64(readOps)))
	}
	return nil
}

// parallel runs fn on threads goroutines and sums their results.
func (r *runner) parallel(threads int, fn func(t int) result) result {
	results := make([]result, threads)
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			results[t] = fn(t)
		}(t)
	}
	wg.Wait()
	var sum result
	for _, x := range results {
		sum.add(x)
	}
	return sum
}

// fill inserts n keys, or while more() is true when more is not nil
// (readwrite's writer, which publishes each sequence for the readers).
func (r *runner) fill(keys *keyStream, n uint64, more func() bool) result {
	var res result
	itemSize := int(r.f.ItemSize)
	vg := valueGenerator{data: r.values}
	key := make([]byte, 8)
	seq := r.seq.Load()
	rep := r.rep
	for i := uint64(0); more != nil || i < n; i++ {
		if more != nil && !more() {
			break
		}
		binary.LittleEndian.PutUint64(key, keys.next())
		seq++
		if err := rep.Add(seq, base.KindSet, key, vg.generate(itemSize)); err != nil {
			res.err = fmt.Errorf("insert of entry %d failed: %w (raise the rep's mem_cap)", i, err)
			break
		}
		if more != nil {
			r.seq.Store(seq)
		}
		res.bytesWritten += uint64(itemSize) + 17
	}
	r.seq.Store(seq)
	return res
}

// readRandom looks up n keys at the current sequence.
func (r *runner) readRandom(keys *keyStream, n uint64) result {
	var res result
	perHit := uint64(r.f.ItemSize) + 17
	key := make([]byte, 8)
	rep := r.rep
	for i := uint64(0); i < n; i++ {
		binary.LittleEndian.PutUint64(key, keys.next())
		if _, _, ok := rep.Get(key, r.seq.Load()); ok {
			res.bytesRead += perHit
			res.readHits++
		}
	}
	return res
}

// readSeq makes n full scans.
func (r *runner) readSeq(n uint64) result {
	var res result
	perEntry := uint64(r.f.ItemSize) + 17
	it := r.rep.NewIter()
	if c, ok := it.(memtable.Closer); ok {
		defer c.Close()
	}
	for i := uint64(0); i < n; i++ {
		var entries uint64
		if r.f.Reverse {
			for ok := it.Last(); ok; ok = it.Prev() {
				entries++
			}
		} else {
			for ok := it.First(); ok; ok = it.Next() {
				entries++
			}
		}
		res.bytesRead += entries * perEntry
		res.readHits++
	}
	return res
}
