package lsm

import (
	"fmt"
	"strings"
	"time"

	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// Stall counters, in the order of RocksDB's "Stalls(count):" line.
const (
	stallL0Slowdown = iota
	stallL0SlowdownWithCompaction
	stallL0NumFiles
	stallL0NumFilesWithCompaction
	stallStopPendingBytes
	stallSlowdownPendingBytes
	stallMemtableCompaction
	stallMemtableSlowdown
	numStalls
)

// levelStats are the cumulative compaction statistics of one output level
// (level 0 counts flushes), the columns of RocksDB's compaction-stats table.
type levelStats struct {
	readBytesN, readBytesNp1 uint64
	writeBytes, wnewBytes    uint64
	movedBytes               uint64
	micros                   uint64
	count                    uint64
	keyIn, keyDrop           uint64
	filesIn, filesInNp1      uint64
	filesOut                 uint64
}

func (s *levelStats) add(o *levelStats) {
	s.readBytesN += o.readBytesN
	s.readBytesNp1 += o.readBytesNp1
	s.writeBytes += o.writeBytes
	s.wnewBytes += o.wnewBytes
	s.movedBytes += o.movedBytes
	s.micros += o.micros
	s.count += o.count
	s.keyIn += o.keyIn
	s.keyDrop += o.keyDrop
}

// writeStats are the DB-wide write counters.
type writeStats struct {
	writes, keys, groups, bytes uint64
	walWrites, walSyncs         uint64
	walBytes                    uint64
	stallMicros                 uint64
}

// dbStats is guarded by DB.mu.
type dbStats struct {
	start              time.Time
	writeStats                // cumulative
	stallMicros        uint64 // cumulative stall time
	stalls             [numStalls]uint64
	levels             []levelStats
	flushBytes         uint64
	runningFlushes     int
	runningCompactions int
	// Values at the previous rocksdb.stats call, for the interval lines.
	lastTime    time.Time
	lastWrites  writeStats
	lastStall   uint64
	lastFlush   uint64
	lastCompW   uint64
	lastCompR   uint64
	lastCompSec float64
}

func (s *dbStats) init(numLevels int) {
	*s = dbStats{levels: make([]levelStats, numLevels)}
	s.start = time.Now()
	s.lastTime = s.start
}

func (s *dbStats) recordGroup(n, keys, bytes int, logged, synced bool) {
	s.writes += uint64(n)
	s.keys += uint64(keys)
	s.groups++
	s.bytes += uint64(bytes)
	if logged {
		s.walWrites++
		s.walBytes += uint64(bytes)
	}
	if synced {
		s.walSyncs++
	}
}

func (s *dbStats) recordFlush(bytes uint64, d time.Duration) {
	s.flushBytes += bytes
	l0 := &s.levels[0]
	l0.writeBytes += bytes
	l0.wnewBytes += bytes
	l0.micros += uint64(d.Microseconds())
	l0.count++
}

// ResetStats clears the cumulative statistics (db_bench resetstats).
func (db *DB) ResetStats() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	rf, rc := db.stats.runningFlushes, db.stats.runningCompactions
	db.stats.init(db.numLevels)
	db.stats.runningFlushes, db.stats.runningCompactions = rf, rc
	return nil
}

const gib = float64(1 << 30)
const mib = float64(1 << 20)

// compactionRow formats one row of the compaction-stats table with RocksDB
// 7.8's column widths, so awk field numbers match (the Sum row has 22
// whitespace-separated fields: Size is two).
func compactionRow(name string, files, compacting int, size uint64, score, wamp float64, s *levelStats) string {
	rd := float64(s.readBytesN+s.readBytesNp1) / gib
	wr := float64(s.writeBytes) / gib
	secs := float64(s.micros) / 1e6
	rdRate, wrRate := 0.0, 0.0
	if secs > 0 {
		rdRate = float64(s.readBytesN+s.readBytesNp1) / mib / secs
		wrRate = float64(s.writeBytes) / mib / secs
	}
	avg := 0.0
	if s.count > 0 {
		avg = secs / float64(s.count)
	}
	return fmt.Sprintf("%4s %6d/%-3d %8s %5.1f %8.1f %7.1f %8.1f %9.1f %8.1f %9.1f %5.1f %8.1f %8.1f %9.2f %17.2f %9d %8.3f %7s %7s %9.1f %9.1f\n",
		name, files, compacting, rocksfmt.Bytes(size), score, rd,
		float64(s.readBytesN)/gib, float64(s.readBytesNp1)/gib, wr, float64(s.wnewBytes)/gib,
		float64(s.movedBytes)/gib, wamp, rdRate, wrRate, secs, secs, s.count, avg,
		rocksfmt.Count(int64(s.keyIn)), rocksfmt.Count(int64(s.keyDrop)), 0.0, 0.0)
}

const compactionHeader = "Level    Files   Size     Score Read(GB)  Rn(GB) Rnp1(GB) Write(GB) Wnew(GB) Moved(GB) W-Amp Rd(MB/s) Wr(MB/s) Comp(sec) CompMergeCPU(sec) Comp(cnt) Avg(sec) KeyIn KeyDrop Rblob(GB) Wblob(GB)\n"

// statsText renders rocksdb.stats (DB.mu held) and advances the interval
// baseline, as RocksDB does on each call.
func (db *DB) statsText() string {
	var b strings.Builder
	s := &db.stats
	v := db.vs.current
	now := time.Now()
	uptime := now.Sub(s.start).Seconds()
	interval := now.Sub(s.lastTime).Seconds()
	scores := db.levelScores(v)

	b.WriteString("\n** Compaction Stats [default] **\n")
	b.WriteString(compactionHeader)
	b.WriteString(strings.Repeat("-", 186) + "\n")
	var sum levelStats
	var sumFiles, sumCompacting int
	var sumSize uint64
	for level := range db.numLevels {
		files := v.levels[level]
		st := &s.levels[level]
		if len(files) == 0 && st.count == 0 && st.movedBytes == 0 {
			continue
		}
		compacting := 0
		for _, f := range files {
			if f.compacting {
				compacting++
			}
		}
		size := levelBytes(files)
		wamp := 0.0
		if st.readBytesN > 0 {
			wamp = float64(st.writeBytes) / float64(st.readBytesN)
		} else if level == 0 && st.writeBytes > 0 {
			wamp = 1
		}
		b.WriteString(compactionRow(fmt.Sprintf("L%d", level), len(files), compacting, size, scores[level], wamp, st))
		sum.add(st)
		sumFiles += len(files)
		sumCompacting += compacting
		sumSize += size
	}
	// The Sum row's W-Amp is bytes written over bytes flushed (ingested).
	sumWamp := 0.0
	if s.flushBytes > 0 {
		sumWamp = float64(sum.writeBytes) / float64(s.flushBytes)
	}
	b.WriteString(compactionRow("Sum", sumFiles, sumCompacting, sumSize, 0, sumWamp, &sum))
	b.WriteString("\nBlob file count: 0, total size: 0.0 GB, garbage size: 0.0 GB, space amp: 0.0\n\n")

	var compW, compR uint64
	for level := range s.levels {
		compW += s.levels[level].writeBytes
		compR += s.levels[level].readBytesN + s.levels[level].readBytesNp1
	}
	compSec := float64(sum.micros) / 1e6
	fmt.Fprintf(&b, "Uptime(secs): %.1f total, %.1f interval\n", uptime, interval)
	fmt.Fprintf(&b, "Flush(GB): cumulative %.3f, interval %.3f\n", float64(s.flushBytes)/gib, float64(s.flushBytes-s.lastFlush)/gib)
	b.WriteString("AddFile(GB): cumulative 0.000, interval 0.000\n")
	b.WriteString("AddFile(Total Files): cumulative 0, interval 0\n")
	b.WriteString("AddFile(L0 Files): cumulative 0, interval 0\n")
	b.WriteString("AddFile(Keys): cumulative 0, interval 0\n")
	rate := func(bytes uint64, secs float64) float64 {
		if secs <= 0 {
			return 0
		}
		return float64(bytes) / mib / secs
	}
	fmt.Fprintf(&b, "Cumulative compaction: %.2f GB write, %.2f MB/s write, %.2f GB read, %.2f MB/s read, %.1f seconds\n",
		float64(compW)/gib, rate(compW, uptime), float64(compR)/gib, rate(compR, uptime), compSec)
	fmt.Fprintf(&b, "Interval compaction: %.2f GB write, %.2f MB/s write, %.2f GB read, %.2f MB/s read, %.1f seconds\n",
		float64(compW-s.lastCompW)/gib, rate(compW-s.lastCompW, interval), float64(compR-s.lastCompR)/gib,
		rate(compR-s.lastCompR, interval), compSec-s.lastCompSec)
	st := s.stalls
	var totalStalls uint64
	for _, n := range st {
		totalStalls += n
	}
	fmt.Fprintf(&b, "Stalls(count): %d level0_slowdown, %d level0_slowdown_with_compaction, %d level0_numfiles, %d level0_numfiles_with_compaction, %d stop for pending_compaction_bytes, %d slowdown for pending_compaction_bytes, %d memtable_compaction, %d memtable_slowdown, interval %d total count\n",
		st[stallL0Slowdown], st[stallL0SlowdownWithCompaction], st[stallL0NumFiles], st[stallL0NumFilesWithCompaction],
		st[stallStopPendingBytes], st[stallSlowdownPendingBytes], st[stallMemtableCompaction], st[stallMemtableSlowdown], totalStalls)
	fmt.Fprintf(&b, "Block cache %s\n\n", db.cacheLine())

	b.WriteString("** File Read Latency Histogram By Level [default] **\n\n")
	b.WriteString("** DB Stats **\n")
	fmt.Fprintf(&b, "Uptime(secs): %.1f total, %.1f interval\n", uptime, interval)
	w, lw := s.writeStats, s.lastWrites
	perGroup := func(writes, groups uint64) float64 {
		if groups == 0 {
			return 0
		}
		return float64(writes) / float64(groups)
	}
	perSync := func(writes, syncs uint64) float64 {
		if syncs == 0 {
			return float64(writes)
		}
		return float64(writes) / float64(syncs)
	}
	fmt.Fprintf(&b, "Cumulative writes: %s writes, %s keys, %s commit groups, %.1f writes per commit group, ingest: %.2f GB, %.2f MB/s\n",
		rocksfmt.Count(int64(w.writes)), rocksfmt.Count(int64(w.keys)), rocksfmt.Count(int64(w.groups)), perGroup(w.writes, w.groups), float64(w.bytes)/gib, rate(w.bytes, uptime))
	fmt.Fprintf(&b, "Cumulative WAL: %s writes, %s syncs, %.2f writes per sync, written: %.2f GB, %.2f MB/s\n",
		rocksfmt.Count(int64(w.walWrites)), rocksfmt.Count(int64(w.walSyncs)), perSync(w.walWrites, w.walSyncs), float64(w.walBytes)/gib, rate(w.walBytes, uptime))
	fmt.Fprintf(&b, "Cumulative stall: %s H:M:S, %.1f percent\n", rocksfmt.HMS(time.Duration(s.stallMicros)*time.Microsecond), percent(s.stallMicros, uptime))
	iw := writeStats{writes: w.writes - lw.writes, keys: w.keys - lw.keys, groups: w.groups - lw.groups, bytes: w.bytes - lw.bytes,
		walWrites: w.walWrites - lw.walWrites, walSyncs: w.walSyncs - lw.walSyncs, walBytes: w.walBytes - lw.walBytes}
	fmt.Fprintf(&b, "Interval writes: %s writes, %s keys, %s commit groups, %.1f writes per commit group, ingest: %.2f MB, %.2f MB/s\n",
		rocksfmt.Count(int64(iw.writes)), rocksfmt.Count(int64(iw.keys)), rocksfmt.Count(int64(iw.groups)), perGroup(iw.writes, iw.groups), float64(iw.bytes)/mib, rate(iw.bytes, interval))
	fmt.Fprintf(&b, "Interval WAL: %s writes, %s syncs, %.2f writes per sync, written: %.2f GB, %.2f MB/s\n",
		rocksfmt.Count(int64(iw.walWrites)), rocksfmt.Count(int64(iw.walSyncs)), perSync(iw.walWrites, iw.walSyncs), float64(iw.walBytes)/gib, rate(iw.walBytes, interval))
	fmt.Fprintf(&b, "Interval stall: %s H:M:S, %.1f percent\n", rocksfmt.HMS(time.Duration(s.stallMicros-s.lastStall)*time.Microsecond), percent(s.stallMicros-s.lastStall, interval))

	s.lastTime, s.lastWrites, s.lastStall, s.lastFlush = now, w, s.stallMicros, s.flushBytes
	s.lastCompW, s.lastCompR, s.lastCompSec = compW, compR, compSec
	return b.String()
}

func percent(micros uint64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return float64(micros) / 1e4 / secs
}

func (db *DB) cacheLine() string {
	if db.cache == nil {
		return "none"
	}
	return fmt.Sprintf("capacity: %s usage: %s", rocksfmt.Bytes(uint64(db.cache.Capacity())), rocksfmt.Bytes(uint64(db.cache.Usage())))
}
