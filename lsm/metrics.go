package lsm

import "time"

// Metrics is a snapshot of what the DB knows about itself: the shape of the
// tree, the cumulative work since the statistics started, and the state of
// the memtables and background jobs. DB.Metrics takes it under the DB's
// mutex in one pass; it is plain data, and formatting it (RocksDB's property
// texts) is the caller's business.
type Metrics struct {
	// Uptime is the time since the statistics started: Open or the last
	// ResetStats.
	Uptime time.Duration
	// Levels has num_levels entries, index = level.
	Levels []LevelMetrics
	// Flushes is the flushes' share of Levels[0].Compactions: a flush counts
	// as a compaction into level 0, and RocksDB reports both.
	Flushes CompactionMetrics
	Writes  WriteMetrics
	Stalls  StallMetrics

	ActiveMemtable     MemtableMetrics
	ImmutableMemtables MemtableMetrics // all of them together

	RunningFlushes     int
	RunningCompactions int
	// FlushPending: immutable memtables wait and no flush is running.
	FlushPending bool
	// CompactionPending: auto compactions are on and some level's score is
	// at least 1.
	CompactionPending bool
	// BackgroundError: a flush, compaction or WAL write failed and writes
	// are refused.
	BackgroundError bool

	// BlockCache is the shared table block cache; Enabled is false when
	// cache_size is 0.
	BlockCache CacheMetrics
}

// LevelMetrics describes one level.
type LevelMetrics struct {
	Files           int
	FilesCompacting int    // inputs of a running compaction
	Size            uint64 // bytes of the level's table files
	// Score is the compaction score: for L0 files over the trigger, for
	// L1..Ln-2 bytes over the level's target; the last level's is 0.
	Score float64
	// EstimatedKeys is RocksDB's estimate of the live keys in the level's
	// tables: per table, entries less twice the deletions (at least 0).
	EstimatedKeys uint64
	// Compactions is the cumulative work of compactions whose output went to
	// this level (for L0: the flushes).
	Compactions CompactionMetrics
}

// CompactionMetrics are cumulative figures of compactions (or flushes).
type CompactionMetrics struct {
	Count    uint64
	Duration time.Duration // wall time
	// ReadBytes came from the input level(s), ReadOutputLevelBytes from the
	// overlapping tables of the output level.
	ReadBytes, ReadOutputLevelBytes uint64
	WrittenBytes                    uint64
	MovedBytes                      uint64 // tables moved down without a rewrite
	KeysIn, KeysDropped             uint64
}

// WriteMetrics are cumulative figures of the write path.
type WriteMetrics struct {
	Writes       uint64 // Write calls (batches)
	Keys         uint64 // records in them
	CommitGroups uint64 // groups committed by a leader
	Bytes        uint64 // batch bytes written
	WALWrites    uint64 // writes that went to the WAL
	WALBytes     uint64
	WALSyncs     uint64
	// The commit pipeline (commit.go, writer_wake.go): EarlyHandOffs
	// counts the groups that passed the writer queue on before inserting,
	// QueuedHandOffs the passes that found a writer waiting. Of the
	// writers woken (next leaders, helpers, followers, leaders waiting
	// for publication), WakesPolling were caught before they parked and
	// WakesParked had parked.
	EarlyHandOffs, QueuedHandOffs uint64
	WakesPolling, WakesParked     uint64
}

// StallMetrics count how often writers were delayed or stopped, and for how
// long in all.
type StallMetrics struct {
	L0Slowdowns       uint64 // delayed by level0_slowdown_writes_trigger
	L0Stops           uint64 // stopped by level0_stop_writes_trigger
	MemtableStops     uint64 // stopped by max_write_buffer_number
	MemtableSlowdowns uint64 // delayed with one memtable left before the stop
	// L0SlowdownsWithCompaction and L0StopsWithCompaction are the L0
	// slowdowns and stops counted while an L0 compaction ran.
	L0SlowdownsWithCompaction uint64
	L0StopsWithCompaction     uint64
	Duration                  time.Duration
}

// MemtableMetrics describe one or more memtables.
type MemtableMetrics struct {
	Count   int
	Size    uint64 // bytes held: reps, key filters, range tombstones (memTable.memoryUsage)
	Entries uint64
}

// CacheMetrics describe the block cache.
type CacheMetrics struct {
	Enabled         bool
	Capacity, Usage uint64
}

// TableInfo describes one table file for a listing of the tree.
type TableInfo struct {
	Num, Size uint64
	// Smallest and Largest are the first and last user keys; they must not
	// be modified.
	Smallest, Largest        []byte
	SmallestSeq, LargestSeq  uint64
	NumEntries, NumDeletions uint64
}

// Metrics returns a snapshot of the DB's figures, or ErrClosed: the tree,
// memtables, flushes and compactions of the default column family, and
// what the families share (writes, stalls, background jobs, the cache).
func (db *DB) Metrics() (Metrics, error) { return db.metrics(db.def) }

// Metrics returns the figures of the DB as DB.Metrics does, with the
// tree, memtables, flushes and compactions of this family.
func (c *ColumnFamily) Metrics() (Metrics, error) { return c.db.metrics(c.f) }

// metrics returns the DB's figures with f's tree, memtables and work.
func (db *DB) metrics(f *family) (Metrics, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	v := f.current
	if v == nil {
		return Metrics{}, ErrClosed
	}
	s := &db.mu.stats
	m := Metrics{
		Uptime:             time.Since(s.start),
		Levels:             make([]LevelMetrics, db.numLevels),
		Flushes:            f.work.flushes.metrics(),
		Writes:             s.writes,
		RunningFlushes:     s.runningFlushes,
		RunningCompactions: s.runningCompactions,
		FlushPending:       len(f.imm) > 0 && !db.mu.flushing,
		BackgroundError:    db.mu.bgErr != nil,
		Stalls: StallMetrics{
			L0Slowdowns:               s.stalls[stallL0Slowdown],
			L0Stops:                   s.stalls[stallL0NumFiles],
			MemtableStops:             s.stalls[stallMemtableCompaction],
			MemtableSlowdowns:         s.stalls[stallMemtableSlowdown],
			Duration:                  time.Duration(s.stallMicros) * time.Microsecond,
			L0SlowdownsWithCompaction: s.stalls[stallL0SlowdownWithCompaction],
			L0StopsWithCompaction:     s.stalls[stallL0NumFilesWithCompaction],
		},
	}
	wakes := db.wakeTotals()
	m.Writes.WakesPolling, m.Writes.WakesParked = wakes.Polling, wakes.Parked
	scores := db.levelScores(v)
	for level := range m.Levels {
		l := &m.Levels[level]
		files := v.levels[level]
		l.Files = len(files)
		for _, f := range files {
			if f.compacting {
				l.FilesCompacting++
			}
			l.Size += f.size
			l.EstimatedKeys += f.numEntries - min(f.numEntries, 2*f.numDeletions)
		}
		l.Score = scores[level]
		l.Compactions = f.work.levels[level].metrics()
		m.CompactionPending = m.CompactionPending || (!db.opts.DisableAutoCompactions && l.Score >= 1)
	}
	if f.mem != nil {
		m.ActiveMemtable = MemtableMetrics{Count: 1, Size: f.mem.memoryUsage(), Entries: uint64(f.mem.rep.Len())}
	}
	for _, mt := range f.imm {
		im := &m.ImmutableMemtables
		im.Count++
		im.Size += mt.memoryUsage()
		im.Entries += uint64(mt.rep.Len())
	}
	if db.cache != nil {
		m.BlockCache = CacheMetrics{Enabled: true, Capacity: uint64(db.cache.Capacity()), Usage: uint64(db.cache.Usage())}
	}
	return m, nil
}

// Tables lists the table files of the current version by level (index =
// level, in the version's order) with the version's number, or ErrClosed.
func (db *DB) Tables() (version uint64, levels [][]TableInfo, err error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	v := db.def.current
	if v == nil {
		return 0, nil, ErrClosed
	}
	levels = make([][]TableInfo, len(v.levels))
	for level, files := range v.levels {
		levels[level] = make([]TableInfo, len(files))
		for i, f := range files {
			levels[level][i] = TableInfo{Num: f.num, Size: f.size, Smallest: f.smallest, Largest: f.largest,
				SmallestSeq: f.smallestSeq, LargestSeq: f.largestSeq, NumEntries: f.numEntries, NumDeletions: f.numDeletions}
		}
	}
	return v.num, levels, nil
}
