package lsm

import (
	"fmt"
	"strconv"
	"strings"
)

// Property returns DB state by RocksDB property name.
func (db *DB) Property(name string) (string, bool) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.vs.current == nil {
		return "", false
	}
	v := db.vs.current
	u := func(n uint64) (string, bool) { return strconv.FormatUint(n, 10), true }
	b2u := func(c bool) (string, bool) {
		if c {
			return "1", true
		}
		return "0", true
	}
	switch name {
	case "rocksdb.stats":
		return db.statsText(), true
	case "rocksdb.levelstats":
		var b strings.Builder
		b.WriteString("Level Files Size(MB)\n--------------------\n")
		for level := range db.numLevels {
			fmt.Fprintf(&b, "%3d %8d %8.0f\n", level, len(v.levels[level]), float64(levelBytes(v.levels[level]))/mib)
		}
		return b.String(), true
	case "rocksdb.sstables":
		var b strings.Builder
		for level := range db.numLevels {
			fmt.Fprintf(&b, "--- level %d --- version# %d ---\n", level, v.num)
			for _, f := range v.levels[level] {
				fmt.Fprintf(&b, " %d:%d[%d .. %d]['%X' seq:%d, type:1 .. '%X' seq:%d, type:1]\n",
					f.num, f.size, f.smallestSeq, f.largestSeq, f.smallest, f.smallestSeq, f.largest, f.largestSeq)
			}
		}
		return b.String(), true
	case "rocksdb.num-immutable-mem-table":
		return u(uint64(len(db.imm)))
	case "rocksdb.num-immutable-mem-table-flushed":
		return u(0)
	case "rocksdb.cur-size-active-mem-table":
		return u(db.mem.rep.ApproximateMemoryUsage())
	case "rocksdb.cur-size-all-mem-tables", "rocksdb.size-all-mem-tables":
		n := db.mem.rep.ApproximateMemoryUsage()
		for _, m := range db.imm {
			n += m.rep.ApproximateMemoryUsage()
		}
		return u(n)
	case "rocksdb.num-entries-active-mem-table":
		return u(uint64(db.mem.rep.Len()))
	case "rocksdb.num-entries-imm-mem-tables":
		var n int64
		for _, m := range db.imm {
			n += m.rep.Len()
		}
		return u(uint64(n))
	case "rocksdb.mem-table-flush-pending":
		return b2u(len(db.imm) > 0 && !db.flushing)
	case "rocksdb.num-running-flushes":
		return u(uint64(db.stats.runningFlushes))
	case "rocksdb.compaction-pending":
		pending := false
		if !db.opts.DisableAutoCompactions {
			for _, s := range db.levelScores(v) {
				pending = pending || s >= 1
			}
		}
		return b2u(pending)
	case "rocksdb.num-running-compactions":
		return u(uint64(db.stats.runningCompactions))
	case "rocksdb.background-errors":
		return b2u(db.bgErr != nil)
	case "rocksdb.estimate-num-keys":
		var n uint64
		for _, files := range v.levels {
			for _, f := range files {
				n += f.numEntries - min(f.numEntries, 2*f.numDeletions)
			}
		}
		n += uint64(db.mem.rep.Len())
		for _, m := range db.imm {
			n += uint64(m.rep.Len())
		}
		return u(n)
	case "rocksdb.total-sst-files-size", "rocksdb.live-sst-files-size":
		var n uint64
		for _, files := range v.levels {
			n += levelBytes(files)
		}
		return u(n)
	case "rocksdb.block-cache-capacity":
		if db.cache == nil {
			return u(0)
		}
		return u(uint64(db.cache.Capacity()))
	case "rocksdb.block-cache-usage":
		if db.cache == nil {
			return u(0)
		}
		return u(uint64(db.cache.Usage()))
	case "rocksdb.base-level":
		return u(1)
	}
	if rest, ok := strings.CutPrefix(name, "rocksdb.num-files-at-level"); ok {
		level, err := strconv.Atoi(rest)
		if err != nil || level < 0 || level >= db.numLevels {
			return "", false
		}
		return u(uint64(len(v.levels[level])))
	}
	return "", false
}
