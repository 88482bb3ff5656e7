package native

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/lsm"
	"github.com/godbbench/godbbench/options"
)

// This file is the native engine's side of RocksDB's statistics:
//   - --statistics makes a statistics.Statistics at --stats_level; lsm and
//     sst count their work in it (lsm statistics.go, sst statistics.go)
//     and the engine its calls (engine.CountedGet, engine.CountedIter, and
//     the write timer here). Property("rocksdb.options-statistics") is the
//     STATISTICS block.
//   - --stats_dump_period_sec (RocksDB's default 600; 0 turns it off)
//     appends to LOG, every period unless the DB is open read-only, what
//     RocksDB's DumpStats appends:
//     "------- DUMPING STATS -------", the DB stats and the column family
//     stats, and "STATISTICS:" with the block when statistics are on.

// defaultStatsDumpPeriod is RocksDB's Options::stats_dump_period_sec.
const defaultStatsDumpPeriod = 600 * time.Second

// SharingStatistics returns an Opener whose databases count in one
// statistics object (engine.StatisticsSharer).
func (Opener) SharingStatistics() engine.Opener {
	return Opener{shared: new(statistics.Shared)}
}

// statsDumpPeriod is o's stats_dump_period_sec (set by name, in Extra,
// when away from RocksDB's default).
func statsDumpPeriod(o *options.Options) (time.Duration, error) {
	v, ok := o.Extra["stats_dump_period_sec"]
	if !ok {
		return defaultStatsDumpPeriod, nil
	}
	sec, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("invalid stats_dump_period_sec %q: %w", v, err)
	}
	return time.Duration(sec) * time.Second, nil
}

// statsDumper appends a stats dump to LOG every period until stopped.
type statsDumper struct {
	stop chan struct{}
	done sync.WaitGroup
}

// startStatsDumper starts dumping db's stats into dir's LOG every period;
// a zero period starts nothing.
func (db *DB) startStatsDumper(dir string, period time.Duration) {
	if period <= 0 {
		return
	}
	d := &statsDumper{stop: make(chan struct{})}
	d.done.Add(1)
	go func() {
		defer d.done.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-d.stop:
				return
			case <-t.C:
				db.dumpStats(filepath.Join(dir, "LOG"))
			}
		}
	}()
	db.dumper = d
}

// stopStatsDumper stops the dumps and waits for one under way.
func (db *DB) stopStatsDumper() {
	if db.dumper != nil {
		close(db.dumper.stop)
		db.dumper.done.Wait()
		db.dumper = nil
	}
}

// dumpStats appends one stats dump to the LOG at path; a failure to write
// it is dropped, as RocksDB's info log drops its own.
func (db *DB) dumpStats(path string) {
	// What RocksDB's DumpStats gathers: the DB stats, then the column
	// family stats; like rocksdb.stats it starts a new interval.
	text, ok := db.renderStats(true)
	if !ok {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	prefix := fmt.Sprintf("%s %d ", time.Now().Format("2006/01/02-15:04:05.000000"), os.Getpid())
	var b strings.Builder
	b.WriteString(prefix + "------- DUMPING STATS -------\n")
	b.WriteString(prefix + text + "\n")
	if db.stats != nil {
		b.WriteString(prefix + "STATISTICS:\n " + db.stats.String() + "\n")
	}
	f.WriteString(b.String())
	f.Close()
}

// statisticsBlock is Property(engine.StatisticsProperty).
func (db *DB) statisticsBlock() (string, bool) {
	if db.stats == nil {
		return "", false
	}
	return db.stats.String(), true
}

// countedGet is Get counted in the statistics.
func (db *DB) countedGet(key []byte, fn func(value []byte)) (bool, error) {
	return engine.CountedGet(db.rec, db.d, key, fn)
}

// timedWrite is a write of b timed into rocksdb.db.write.micros.
func (db *DB) timedWrite(b *lsm.Batch, wo lsm.WriteOptions) error {
	start := db.rec.Start()
	err := db.d.Write(b, wo)
	db.rec.Since(statistics.DBWriteMicros, start)
	return err
}

// timedMerge is a merge timed into rocksdb.db.write.micros.
func (db *DB) timedMerge(key, value []byte, wo lsm.WriteOptions) error {
	start := db.rec.Start()
	err := db.d.Merge(key, value, wo)
	db.rec.Since(statistics.DBWriteMicros, start)
	return err
}
