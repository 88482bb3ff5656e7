package dbbench

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/clock"
)

// OpType selects the histogram an operation is recorded in; names are
// db_bench's (OperationTypeString).
type OpType int

const (
	opRead OpType = iota
	opWrite
	opDelete
	opSeek
	opMerge
	opUpdate
	opCompress
	opUncompress
	opCrc
	opHash
	opOthers
	numOpTypes
)

var opTypeNames = [numOpTypes]string{"read", "write", "delete", "seek", "merge", "update", "compress", "", "crc", "hash", "op"}

// Stats is one thread's record of a benchmark run (db_bench's Stats). The
// hot path, FinishedOps, costs an increment and a compare unless histograms,
// interval reports or the CSV reporter are on.
type Stats struct {
	r         *runner
	id        int
	start     time.Time
	finish    time.Time
	seconds   float64
	done      int64
	bytes     int64
	lastOpNs  int64 // clock.Nanos at the end of the last operation
	nextRpt   int64
	lastRptDn int64
	lastRptAt time.Time
	message   string
	exclude   bool

	hist    [numOpTypes]*Histogram
	histOrd []OpType // first-use order, which is db_bench's print order
	hdr     [numOpTypes]*hdrRecorder

	found    int64 // found count for the JSON record
	reads    int64
	checksum uint64 // order-independent fold of what was read

	yield yielder
	// intervalDB is the database whose stats --stats_per_interval prints
	// after thread 0's interval line, db_bench's FinishedOps(db) argument:
	// the database of the last operation (selectSlot sets it with several
	// databases); nil prints none. intervalPinned keeps it from changing
	// (pinIntervalDB).
	intervalDB     engine.DB
	intervalPinned bool
	// detailed: finishedOps also feeds the report-interval counter or the
	// latency histograms.
	detailed bool
	// slowMask selects the calls of finishedOps that take its slow path:
	// those that bring done to a multiple of yieldCheckEvery (at least one
	// call in yieldCheckEvery whatever n is), or every call when detailed,
	// batched, or while operations are slow (yield.go).
	slowMask uint32
	// batched: --batch_size > 1, so slowMask stays 0 (batched writes report
	// many operations a call).
	batched bool
	// yieldEveryOp: operations are slow, so the yield clock is read on every
	// call (yield.go), not only when done crosses a multiple of
	// yieldCheckEvery.
	yieldEveryOp bool
	// histClock: the latency histograms read the clock after every
	// operation (lastOpNs), so the yield check takes that reading on every
	// call instead of reading the clock itself every yieldCheckEvery.
	histClock bool
}

func (s *Stats) startAt(r *runner, id int) {
	*s = Stats{r: r, id: id, intervalDB: r.db}
	now := r.now()
	s.start, s.finish, s.lastRptAt = now, now, now
	s.lastOpNs = clock.Nanos()
	if r.cfg.statsInterval > 0 {
		s.nextRpt = r.cfg.statsInterval
	} else {
		s.nextRpt = 100
	}
	if !r.cfg.progressReports {
		s.nextRpt = math.MaxInt64 // db_bench reports only with --progress_reports
	}
	s.detailed = r.cfg.reportInterval > 0 || r.cfg.histogram
	s.histClock = r.cfg.histogram
	s.slowMask = yieldCheckEvery - 1
	s.batched = r.entriesPerBatch > 1
	if s.detailed || s.batched {
		// Batched writes report many ops per call, each call a long engine
		// call: done could skip multiples of yieldCheckEvery for many calls
		// (by 64 calls with an odd batch size), so every call is checked.
		s.slowMask = 0
	}
}

// pinIntervalDB makes db the database whose stats the thread's interval
// dumps print for the rest of the benchmark, whatever it selects: what
// db_bench passes FinishedOps in the benchmarks that name no selected
// database (db_.db, nil with several databases; nil in the CPU ones).
func (s *Stats) pinIntervalDB(db engine.DB) {
	s.intervalDB, s.intervalPinned = db, true
}

// stop ends the thread's timing.
func (s *Stats) stop() {
	s.finish = time.Now()
	s.seconds = s.finish.Sub(s.start).Seconds()
}

// resetLastOpTime hides rate-limiter sleeps from the latency histogram.
func (s *Stats) resetLastOpTime() { s.lastOpNs = clock.Nanos() }

func (s *Stats) addBytes(n int64) { s.bytes += n }

func (s *Stats) addMessage(m string) {
	if s.message == "" {
		s.message = m
	} else {
		s.message += " " + m
	}
}

// finishedOps records n completed operations of type t. It is small enough
// to inline into the benchmark loops (inlining cost 80, the budget): the
// call with its configuration loads through s.r was 1.2% of a RocksDB
// readseq profile, and inlining took native readseq on a compacted 1M-key
// DB from 0.111 to 0.107 µs an entry (alternated runs; RocksDB's readseq,
// at ~0.215, did not move measurably). Histograms, the report-interval
// counter, the yield clock and progress lines all sit behind one test.
func (s *Stats) finishedOps(n int64, t OpType) {
	s.done += n
	if uint32(s.done)&s.slowMask == 0 || s.done >= s.nextRpt {
		s.finishedOpsSlow(n, t)
	}
}

// runLimit bounds a run of up to n operations reported by one finishedOps
// call so that the run ends on the next progress-report or stats-interval
// boundary at the latest: the report lines then show the counts the
// one-operation loops show. It is at least 1.
func (s *Stats) runLimit(n int64) int64 {
	if left := s.nextRpt - s.done; left < n {
		return max(left, 1)
	}
	return n
}

// finishedOpsSlow is finishedOps' rare part.
//
//go:noinline
func (s *Stats) finishedOpsSlow(n int64, t OpType) {
	if s.detailed {
		s.recordDetail(n, t)
	}
	s.afterOps()
}

// afterOps is the part of finishedOps' slow path that follows the
// per-operation records: the yield clock and the progress lines.
func (s *Stats) afterOps() {
	if s.histClock {
		s.yieldEveryOp = s.yield.checkAt(s.lastOpNs, s.done)
	} else if s.yieldEveryOp || uint32(s.done)&(yieldCheckEvery-1) == 0 {
		s.yieldEveryOp = s.yield.check(s.done)
		if !s.detailed && !s.batched {
			s.slowMask = yieldCheckEvery - 1
			if s.yieldEveryOp {
				s.slowMask = 0
			}
		}
	}
	if s.done >= s.nextRpt {
		s.progress()
	}
}

// recordDetail feeds the report-interval counter and the histograms.
func (s *Stats) recordDetail(n int64, t OpType) {
	cfg := &s.r.cfg
	if cfg.reportInterval > 0 {
		s.r.reportOps.Add(n)
	}
	if cfg.histogram {
		s.recordLatency(clock.Nanos(), t)
	}
}

// recordLatency adds the operation that ended at endNs (clock.Nanos) to
// the histograms, with the latency db_bench computes: the difference of
// the whole microseconds of its clock (NowMicros) at the end of this
// operation and of the one before, so the latencies add up to the run's
// time instead of each losing its fraction of a microsecond.
func (s *Stats) recordLatency(endNs int64, t OpType) {
	micros := uint64(max(endNs/1000-s.lastOpNs/1000, 0))
	s.lastOpNs = endNs
	s.addLatency(micros, t)
}

// addLatency adds one operation of micros to the histograms of t.
func (s *Stats) addLatency(micros uint64, t OpType) {
	h := s.hist[t]
	if h == nil {
		h = NewHistogram()
		s.hist[t] = h
		s.hdr[t] = newHdrRecorder()
		s.histOrd = append(s.histOrd, t)
	}
	h.Add(micros)
	s.hdr[t].record(int64(micros))
	if micros >= s.r.cfg.slowUsecs && s.r.cfg.statsInterval == 0 {
		s.r.errf("long op: %d micros%30s\r", micros, "")
	}
}

// finishedTimedRun records a run of operations an engine timed
// (engine.Runner, engine.Runs): the call began at callStart (clock.Nanos)
// and operation i ended doneNs[i] nanoseconds later; the run's keys and
// values were drawn between the previous operation's end (or the resume
// from a yield after it) and callStart. Each operation's latency is its
// time in the engine plus an equal share of that drawing, as db_bench's
// clock read after every operation would see it, and the sum of the
// latencies is the run's whole time, as with one call per operation.
//
// A yield's wait for a P goes to the run's first operation alone, as it
// goes to the one operation after it in the loops of single calls
// (afterOps): shared out, a wait of a few milliseconds put a whole run of
// up to 64 operations in the latency tail instead of one (readwhilewriting
// at 1M keys and 1 thread: 0.3% of reads at 170-380 µs, the P99.9).
func (s *Stats) finishedTimedRun(callStart int64, doneNs []int64, t OpType) {
	n := int64(len(doneNs))
	if n == 0 {
		return
	}
	if s.r.cfg.reportInterval > 0 {
		s.r.reportOps.Add(n)
	}
	if s.r.cfg.histogram {
		from := max(s.lastOpNs, s.yield.last)
		share := (callStart - from) / n
		for i, d := range doneNs {
			s.recordLatency(from+share*int64(i+1)+d, t)
		}
	}
	s.done += n
	// Once a run, since a run may be one long engine call; the runs of
	// single calls are cut to the yield check stride (Stats.runCap).
	s.yieldEveryOp = s.yield.check(s.done)
	if s.done >= s.nextRpt {
		s.progress()
	}
}

func (s *Stats) progress() {
	cfg := &s.r.cfg
	if cfg.statsInterval == 0 {
		switch {
		case s.nextRpt < 1000:
			s.nextRpt += 100
		case s.nextRpt < 5000:
			s.nextRpt += 500
		case s.nextRpt < 10000:
			s.nextRpt += 1000
		case s.nextRpt < 50000:
			s.nextRpt += 5000
		case s.nextRpt < 100000:
			s.nextRpt += 10000
		case s.nextRpt < 500000:
			s.nextRpt += 50000
		default:
			s.nextRpt += 100000
		}
		s.r.errf("... finished %d ops%30s\r", s.done, "")
		return
	}
	now := s.r.now()
	since := now.Sub(s.lastRptAt)
	if cfg.statsIntervalSeconds > 0 && since < time.Duration(cfg.statsIntervalSeconds)*time.Second {
		s.nextRpt += cfg.statsInterval
		return
	}
	s.r.errf("%s", intervalLine(now, s.start, s.lastRptAt, s.id, s.done-s.lastRptDn, s.done))
	if s.id == 0 && cfg.statsPerInterval > 0 {
		s.r.printIntervalStats(s.intervalDB)
	}
	s.nextRpt += cfg.statsInterval
	s.lastRptAt = now
	s.lastRptDn = s.done
}

// intervalLine is the --stats_interval progress line of thread id at now:
// the ops of this interval and in all, their rates and the seconds they took.
// db_bench's clock counts whole microseconds, so each time is truncated to
// microseconds before the rates and the %.6f seconds are computed.
func intervalLine(now, start, lastAt time.Time, id int, interval, done int64) string {
	sinceUs := now.UnixMicro() - lastAt.UnixMicro()
	totalUs := now.UnixMicro() - start.UnixMicro()
	return fmt.Sprintf("%s ... thread %d: (%d,%d) ops and (%.1f,%.1f) ops/second in (%.6f,%.6f) seconds\n",
		timeToString(now), id, interval, done,
		float64(interval)/(float64(sinceUs)/1e6), float64(done)/(float64(totalUs)/1e6),
		float64(sinceUs)/1e6, float64(totalUs)/1e6)
}

// timeToString is RocksDB's SystemClock::TimeToString: local time with a
// trailing space.
func timeToString(t time.Time) string {
	return t.Format("2006/01/02-15:04:05") + " "
}

// merge folds other into s as db_bench's Stats::Merge does; excluded threads
// (background writers) contribute nothing.
func (s *Stats) merge(o *Stats) {
	if o.exclude {
		return
	}
	for _, t := range o.histOrd {
		if s.hist[t] == nil {
			s.hist[t] = NewHistogram()
			s.hdr[t] = newHdrRecorder()
			s.histOrd = append(s.histOrd, t)
		}
		s.hist[t].Merge(o.hist[t])
		s.hdr[t].merge(o.hdr[t])
	}
	s.done += o.done
	s.bytes += o.bytes
	s.seconds += o.seconds
	if o.start.Before(s.start) {
		s.start = o.start
	}
	if o.finish.After(s.finish) {
		s.finish = o.finish
	}
	if s.message == "" {
		s.message = o.message
	}
	s.found += o.found
	s.reads += o.reads
	s.checksum += o.checksum
}

// elapsed is the merged wall time in seconds.
func (s *Stats) elapsed() float64 { return s.finish.Sub(s.start).Seconds() }

// report prints the result line (and histograms) exactly as db_bench's
// Stats::Report: micros/op from summed per-thread seconds, ops/sec truncated,
// MB/s only when bytes were counted.
func (s *Stats) report(w io.Writer, name string, histogram bool) {
	if s.done < 1 {
		s.done = 1
	}
	elapsed := s.elapsed()
	extra := ""
	if s.bytes > 0 {
		extra = fmt.Sprintf("%6.1f MB/s", float64(s.bytes)/1048576.0/elapsed)
	}
	if s.message != "" {
		if extra != "" {
			extra += " "
		}
		extra += s.message
	}
	sep := ""
	if extra != "" {
		sep = " "
	}
	fmt.Fprintf(w, "%-12s : %11.3f micros/op %d ops/sec %.3f seconds %d operations;%s%s\n",
		name, s.seconds*1e6/float64(s.done), truncOpsPerSec(float64(s.done)/elapsed), elapsed, s.done, sep, extra)
	if histogram {
		for _, t := range s.histOrd {
			fmt.Fprintf(w, "Microseconds per %s:\n%s\n", opTypeNames[t], s.hist[t].String())
		}
	}
}

// truncOpsPerSec is db_bench's (long) cast of ops/sec. A run with no thread
// (--threads=0) has zero elapsed time and an infinite rate, which the x86-64
// conversion db_bench relies on turns into the "integer indefinite" value
// math.MinInt64; Go leaves out-of-range conversions to the platform, so it is
// spelled out here.
func truncOpsPerSec(v float64) int64 {
	if math.IsNaN(v) || v >= math.MaxInt64 || v < math.MinInt64 {
		return math.MinInt64
	}
	return int64(v)
}
