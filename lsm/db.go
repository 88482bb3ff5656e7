package lsm

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/sst"

	// The memtable reps selectable by --memtablerep.
	_ "github.com/godbbench/godbbench/memtable/cspp"
	_ "github.com/godbbench/godbbench/memtable/offsetskiplist"
	_ "github.com/godbbench/godbbench/memtable/skiplist"
)

var errNotExist = os.ErrNotExist

// Config holds what Open needs besides the engine-neutral options.
type Config struct {
	// FS is the file system; nil means DefaultFS.
	FS FS
	// Version is written to the LOG file's version line.
	Version string
}

// ErrClosed is returned by operations on a closed DB.
var ErrClosed = errors.New("lsm: database closed")

// DB is an open native LSM database. It is safe for concurrent use.
type DB struct {
	dir, walDir string
	opts        *options.Options
	fs          FS
	lock        io.Closer
	cache       *sst.Cache
	numLevels   int
	tableOpts   []sst.WriterOptions // per output level
	repFactory  memtable.Factory
	repConfig   memtable.Config

	// Everything below up to stats is guarded by mu.
	mu       sync.Mutex
	bgCond   *sync.Cond // broadcast when a flush or compaction ends
	writers  writerQueue
	group    []*writer      // the current leader's group (leader only)
	insertWG sync.WaitGroup // the current group's parallel inserts (leader only)
	split    splitInsert    // a lone large batch's two-way insert (leader only)
	walWrite walWrite       // a large group's overlapped WAL write (leader only)
	mem      *memTable
	imm      []*memTable
	nextMem  uint64
	log      *wal.Writer // WAL of mem; nil when mem has none yet
	logFile  WritableFile
	logNum   uint64
	liveWALs []uint64 // WALs created since open, oldest first
	vs       versionSet
	lastSeq  uint64 // last sequence assigned to a write
	snaps    snapshotList
	bgErr    error // sticky: once set, writes fail with it
	// delayDebt is write delay owed under level0_slowdown_writes_trigger.
	delayDebt time.Duration
	closed    bool
	flushing  bool
	// flushTarget is the highest memtable id a caller waits to see flushed,
	// overriding min_write_buffer_number_to_merge.
	flushTarget        uint64
	flushedID          uint64
	runningCompactions int
	manualRunning      bool
	compactPointer     [][]byte // per level: where the next compaction starts

	visibleSeq atomic.Uint64
	reads      readStateHolder
	bgWG       sync.WaitGroup
	stats      dbStats
}

// Open opens (creating if missing) the database in dir.
func Open(dir string, opts *options.Options, cfg Config) (*DB, error) {
	if opts == nil {
		opts = options.Default()
	}
	db := &DB{dir: dir, walDir: opts.WALDir, opts: opts, fs: cfg.FS}
	if db.fs == nil {
		db.fs = DefaultFS
	}
	if db.walDir == "" {
		db.walDir = dir
	}
	if err := db.prepareOptions(); err != nil {
		return nil, err
	}
	db.bgCond = sync.NewCond(&db.mu)
	db.vs.db = db
	db.compactPointer = make([][]byte, db.numLevels)
	db.stats.init(db.numLevels)
	if opts.ReadOnly {
		return db.openReadOnly()
	}
	if err := db.fs.MkdirAll(dir); err != nil {
		return nil, fmt.Errorf("lsm: create %s: %w", dir, err)
	}
	if err := db.fs.MkdirAll(db.walDir); err != nil {
		return nil, fmt.Errorf("lsm: create WAL dir %s: %w", db.walDir, err)
	}
	lock, err := db.fs.Lock(filepath.Join(dir, lockName))
	if err != nil {
		return nil, err
	}
	db.lock = lock
	db.mu.Lock()
	err = db.recover()
	db.mu.Unlock()
	if err != nil {
		db.closeFiles()
		return nil, err
	}
	db.writeInfoLog(cfg.Version)
	db.mu.Lock()
	db.maybeScheduleCompaction()
	db.mu.Unlock()
	return db, nil
}

// prepareOptions validates the options and derives the per-level table
// settings and the memtable factory.
func (db *DB) prepareOptions() error {
	o := db.opts
	db.numLevels = o.NumLevels
	if db.numLevels < 2 || db.numLevels > maxLevels {
		return fmt.Errorf("lsm: num_levels %d out of range [2, %d]", o.NumLevels, maxLevels)
	}
	if o.WriteBufferSize <= 0 {
		return fmt.Errorf("lsm: write_buffer_size must be > 0, got %d", o.WriteBufferSize)
	}
	f, mcfg, err := memtable.Lookup(o.Memtablerep)
	if err != nil {
		return fmt.Errorf("lsm: memtablerep %q: %w", o.Memtablerep, err)
	}
	if mcfg.WriteBufferSize == 0 {
		mcfg.WriteBufferSize = uint64(o.WriteBufferSize)
	}
	db.repFactory, db.repConfig = f, mcfg
	db.tableOpts = make([]sst.WriterOptions, db.numLevels)
	for level := range db.numLevels {
		c, err := sst.ParseCompression(o.LevelCompression(level))
		if err != nil {
			return fmt.Errorf("lsm: level %d compression: %w", level, err)
		}
		cl := o.CompressionLevel
		if cl == 32767 {
			cl = 0
		}
		db.tableOpts[level] = sst.WriterOptions{
			BlockSize:            max(o.BlockSize, 256),
			BlockRestartInterval: max(o.BlockRestartInterval, 1),
			BloomBitsPerKey:      max(o.BloomBits, 0),
			Compression:          c,
			CompressionLevel:     cl,
		}
	}
	if o.CacheSize > 0 {
		db.cache = sst.NewCache(o.CacheSize, o.CacheNumShardBits)
	}
	return nil
}

func (db *DB) newMemTable(logNum uint64) (*memTable, error) {
	rep, err := db.repFactory(db.repConfig)
	if err != nil {
		return nil, fmt.Errorf("lsm: create memtable: %w", err)
	}
	db.nextMem++
	m := &memTable{rep: rep, id: db.nextMem, logNum: logNum, limit: uint64(db.opts.WriteBufferSize)}
	m.refs.Store(1)
	return m, nil
}

// recover loads the MANIFEST, replays the WALs past it into L0 tables, starts
// a fresh MANIFEST and WAL and deletes obsolete files. DB.mu is held.
func (db *DB) recover() error {
	found, err := db.vs.recover(db.numLevels)
	if err != nil {
		return err
	}
	if !found {
		db.vs.nextFileNum.Store(1)
		v, _ := (*version)(nil).apply(&versionEdit{}, db.numLevels)
		db.vs.install(v)
	}
	db.lastSeq = db.vs.lastSeq
	// Replay WALs not yet flushed, oldest first.
	names, err := db.fs.List(db.walDir)
	if err != nil {
		return fmt.Errorf("lsm: list %s: %w", db.walDir, err)
	}
	var logs []uint64
	for _, n := range names {
		if t, num := parseFileName(n); t == fileWAL && num >= db.vs.logNumber {
			logs = append(logs, num)
		}
	}
	sort.Slice(logs, func(i, j int) bool { return logs[i] < logs[j] })
	edit := &versionEdit{}
	for _, num := range logs {
		if err := db.replayWAL(num, edit); err != nil {
			return err
		}
		db.vs.markFileNumUsed(num)
	}
	// Start the new WAL and memtable, then record the replayed tables and the
	// new log number in a fresh MANIFEST.
	if err := db.createManifestAndLog(edit); err != nil {
		return err
	}
	db.visibleSeq.Store(db.lastSeq)
	db.reads.set(db.mem, db.imm, db.vs.current)
	db.deleteObsoleteFiles()
	return nil
}

func (db *DB) createManifestAndLog(edit *versionEdit) error {
	logNum := db.vs.newFileNum()
	if len(edit.added) > 0 {
		nv, err := db.vs.current.apply(edit, db.numLevels)
		if err != nil {
			return err
		}
		db.vs.install(nv)
	}
	db.vs.logNumber = logNum
	db.vs.lastSeq = max(db.vs.lastSeq, db.lastSeq)
	if err := db.vs.createManifest(); err != nil {
		return err
	}
	return db.switchLog(logNum)
}

// switchLog makes a new WAL and an empty active memtable (DB.mu held).
func (db *DB) switchLog(logNum uint64) error {
	f, err := db.fs.Create(walName(db.walDir, logNum))
	if err != nil {
		return fmt.Errorf("lsm: create WAL: %w", err)
	}
	if osf, ok := f.(*os.File); ok && db.opts.MmapWrite {
		if f, err = newMmapLog(osf); err != nil {
			osf.Close()
			return fmt.Errorf("lsm: create WAL: %w", err)
		}
	}
	mem, err := db.newMemTable(logNum)
	if err != nil {
		f.Close()
		return err
	}
	if db.logFile != nil {
		// The old WAL was flushed by every group that wrote it; sync so the
		// memtable it backs survives a crash until its flush.
		if err := db.logFile.Sync(); err != nil {
			f.Close()
			return fmt.Errorf("lsm: sync WAL: %w", err)
		}
		db.logFile.Close()
	}
	db.logFile, db.log, db.logNum = f, wal.NewWriter(f), logNum
	db.liveWALs = append(db.liveWALs, logNum)
	if db.mem != nil {
		db.imm = append(db.imm, db.mem)
	}
	db.mem = mem
	if err := db.fs.SyncDir(db.walDir); err != nil {
		return fmt.Errorf("lsm: sync WAL dir: %w", err)
	}
	return nil
}

// replayWAL applies the batches of one WAL, writing an L0 table whenever the
// replay memtable fills and at the end.
func (db *DB) replayWAL(num uint64, edit *versionEdit) error {
	name := walName(db.walDir, num)
	data, err := db.fs.ReadFile(name)
	if err != nil {
		return fmt.Errorf("lsm: read WAL %s: %w", name, err)
	}
	mem, err := db.newMemTable(num)
	if err != nil {
		return err
	}
	flushMem := func() error {
		if mem.empty() {
			return nil
		}
		meta, err := db.writeLevel0([]*memTable{mem}, nil)
		if err != nil {
			return err
		}
		if meta != nil {
			edit.added = append(edit.added, newFileEntry{level: 0, meta: meta})
		}
		mem.unref() // replay memtables are never in a readState
		mem, err = db.newMemTable(num)
		return err
	}
	r := wal.NewReader(data)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("lsm: WAL %s: %w", name, err)
		}
		br, err := newBatchReader(rec)
		if err == nil {
			_, _, err = validateBatch(rec)
		}
		if err != nil {
			return fmt.Errorf("lsm: WAL %s at offset %d: %w", name, r.Offset(), err)
		}
		for {
			kind, key, value, seq, ok, _ := br.next()
			if !ok {
				break
			}
			if err := mem.rep.Add(seq, kind, key, value); err != nil {
				return fmt.Errorf("lsm: replay WAL %s: %w", name, err)
			}
			db.lastSeq = max(db.lastSeq, seq)
			mem.logical += uint64(len(key)+len(value)) + memEntryOverhead
		}
		if mem.full() {
			if err := flushMem(); err != nil {
				return err
			}
		}
	}
	if err := flushMem(); err != nil {
		return err
	}
	mem.unref()
	return nil
}

// deleteObsoleteFiles removes tables not in the current version, WALs
// already flushed and old MANIFESTs (DB.mu held).
func (db *DB) deleteObsoleteFiles() {
	live := map[uint64]bool{}
	for _, files := range db.vs.current.levels {
		for _, f := range files {
			live[f.num] = true
		}
	}
	dirs := []string{db.dir}
	if db.walDir != db.dir {
		dirs = append(dirs, db.walDir)
	}
	for _, dir := range dirs {
		names, err := db.fs.List(dir)
		if err != nil {
			continue
		}
		for _, n := range names {
			t, num := parseFileName(n)
			del := false
			switch t {
			case fileTable:
				del = dir == db.dir && !live[num]
			case fileWAL:
				del = num < db.vs.logNumber && num != db.logNum
			case fileManifest:
				del = dir == db.dir && num < db.vs.manifestNum
			case fileTemp:
				del = dir == db.dir
			}
			if del {
				db.fs.Remove(filepath.Join(dir, n))
			}
		}
	}
}

// releaseVersion drops a dead version's references to its files, closing
// and deleting tables no version lists any more.
func (db *DB) releaseVersion(v *version) {
	for _, files := range v.levels {
		for _, f := range files {
			if f.refs.Add(-1) == 0 {
				if r := f.reader.Swap(nil); r != nil {
					r.Close()
				}
				db.fs.Remove(tableName(db.dir, f.num))
			}
		}
	}
}

// writeInfoLog writes the LOG file whose version line tools/benchmark.sh
// reads (field 5 of the "RocksDB version:" line).
func (db *DB) writeInfoLog(version string) {
	f, err := db.fs.Create(filepath.Join(db.dir, logName))
	if err != nil {
		return
	}
	now := time.Now().Format("2006/01/02-15:04:05.000000")
	fmt.Fprintf(f, "%s %d RocksDB version: %s\n", now, os.Getpid(), version)
	fmt.Fprintf(f, "%s %d Engine: godbbench native LSM\n", now, os.Getpid())
	f.Close()
}

// Close waits for background work, flushes memtables holding writes that
// skipped the WAL, and releases every file.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return ErrClosed
	}
	needFlush := db.mem.unlogged.Load()
	for _, m := range db.imm {
		needFlush = needFlush || m.unlogged.Load()
	}
	db.mu.Unlock()
	var err error
	if needFlush {
		err = db.Flush()
	}
	db.mu.Lock()
	db.closed = true
	for db.writers.len() > 0 || db.flushing || db.runningCompactions > 0 || db.manualRunning {
		db.bgCond.Wait()
	}
	if db.log != nil {
		if ferr := db.log.Flush(); ferr != nil && err == nil {
			err = ferr
		}
		if serr := db.logFile.Sync(); serr != nil && err == nil && db.bgErr == nil {
			err = serr
		}
	}
	db.mu.Unlock()
	db.bgWG.Wait()
	db.reads.clear()
	// Drop the DB's references; memtables still listed by an open iterator's
	// read state are released when it closes.
	if db.mem != nil {
		db.mem.unref()
	}
	for _, m := range db.imm {
		m.unref()
	}
	db.mu.Lock()
	v := db.vs.current
	db.vs.current = nil
	db.mu.Unlock()
	if v != nil {
		// Close readers of live tables without deleting them.
		for _, files := range v.levels {
			for _, f := range files {
				if r := f.reader.Swap(nil); r != nil {
					r.Close()
				}
			}
		}
	}
	db.closeFiles()
	return err
}

func (db *DB) closeFiles() {
	if db.logFile != nil {
		db.logFile.Close()
		db.logFile = nil
	}
	if db.vs.manifestFile != nil {
		db.vs.manifestFile.Close()
		db.vs.manifestFile = nil
	}
	if db.lock != nil {
		db.lock.Close()
		db.lock = nil
	}
}
