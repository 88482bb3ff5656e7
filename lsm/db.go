package lsm

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbbench/godbbench/internal/fileops"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/mergeop"
	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/rtable"
	"github.com/godbbench/godbbench/sst"
)

var errNotExist = os.ErrNotExist

// Config holds what Open needs besides the engine-neutral options.
type Config struct {
	// FS is the file system; nil means DefaultFS.
	FS FS
	// Version is written to the LOG file's version line.
	Version string
	// MergeOperator applies merge operands (Merge, Batch.Merge) on reads,
	// flushes and compactions. Without one, DB.Merge fails and reading a
	// key that holds operands fails (RocksDB's words for both; merge.go).
	MergeOperator mergeop.Operator
	// Statistics, when it records anything, counts the DB's work in
	// RocksDB's tickers and histograms (statistics.go).
	Statistics *statistics.Statistics
	// FileOperations, when set, counts the DB's file operations
	// (--report_file_operations; fs_counted.go).
	FileOperations *fileops.Counters
	// ColumnFamilies names the column families to open besides the
	// default (RocksDB's DB::Open with column family descriptors, with
	// create_missing_column_families): those the DB lacks are created.
	// A family the DB has that is not named fails the open ("Column
	// families not opened"). A read-only open opens those named, which
	// may be fewer than the DB has, and creates none (readonly.go).
	ColumnFamilies []string
	// DisableReadCompactions turns off read-triggered compactions
	// (compaction_read.go), which are on by default for leveled
	// compaction.
	DisableReadCompactions bool
	// ReleaseMemoryAfterCompact, when set, has each Compact hand the
	// memory it finished with back to the operating system: the memtable
	// pools' idle huge-page regions and, after a garbage collection, the
	// free Go heap (idlememory.go). Both act on the whole process, so it
	// suits a program that runs one DB, such as db_bench; off, the runtime
	// returns the heap over minutes by itself.
	ReleaseMemoryAfterCompact bool
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
	rows        *rowCache // nil: no row cache
	numLevels   int
	tableOpts   []sst.WriterOptions // per output level
	repFactory  memtable.Factory
	repConfig   memtable.Config
	merge       mergeop.Operator       // nil: no merge operator
	tickers     *statistics.Statistics // nil: statistics off
	// releaseMemory is Config.ReleaseMemoryAfterCompact.
	releaseMemory bool
	// prefix is the prefix extractor, and memBloomBits the size of each
	// memtable's bloom filter (0: none), whole keys in it when
	// memBloomWhole (prefix.go).
	prefix        prefixExtractor
	memBloomBits  uint64
	memBloomWhole bool
	// memPoints gives memtables whose rep is memtable.Pointed a point
	// index beside the default key filter (memtable_keyfilter.go): from
	// the start when memGets, set by a Get that searches the memtables, was
	// set since the last memtable was made, else built when a Get first
	// searches it as the family's mutable memtable.
	memPoints bool
	memGets   atomic.Bool

	// tableFormats is the format of new tables and rtableOpts the options
	// of rtable ones, per output level (table.go).
	tableFormats []tableFormat
	rtableOpts   []rtable.WriterOptions
	// readCompactions: reads charge the tables they probe in vain and
	// queue them for compaction (compaction_read.go); fixed at Open.
	readCompactions bool

	// guard keeps the deletions of released versions' files from
	// outliving the directory lock (fileguard.go).
	guard fileGuard

	// bgCond is mu's condition variable, broadcast when a flush or
	// compaction ends.
	bgCond *sync.Cond

	// memberWakes count the wakes of commit group members
	// (writer_wake.go).
	memberWakes atomicWakeCounts
	// pub publishes commit groups in sequence order (publish.go).
	pub publisher
	// procs is GOMAXPROCS as of the last memtable made (procs.go).
	procs atomic.Int32
	// familyNames are Config.ColumnFamilies.
	familyNames []string
	// createMu serializes CreateColumnFamily calls (columnfamily.go).
	createMu sync.Mutex
	// routeMems are the memtables, by family id, that a batch naming
	// other column families goes to (family_write.go).
	routeMems []*memTable

	visibleSeq atomic.Uint64
	// def is the default column family (family.go), set by Open.
	def  *family
	bgWG sync.WaitGroup
	// purge releases read states whose last reference a read dropped
	// (purge.go).
	purge purger
	// blobs finds blob files by number for reads (blob_file.go).
	blobs blobRegistry
	// blobOpts are the key-value separation options (blob_options.go).
	blobOpts blobOptions
	// io is how the DB reads and writes tables and blob files (fileio.go).
	io fileIO
	// walCompressor compresses WAL records; nil: WALs are not compressed
	// (walcompress.go).
	walCompressor *wal.Compressor
	// tables bounds the open table readers under max_open_files; nil
	// when unlimited (tablecache.go).
	tables *tableCache

	// mu guards the fields inside it.
	mu struct {
		sync.Mutex
		writers  writerQueue
		nextMem  uint64
		log      *wal.Writer // WAL of mem; nil when mem has none yet
		logFile  WritableFile
		logNum   uint64
		liveWALs []uint64 // WALs created since open, oldest first
		vs       versionSet
		lastSeq  uint64 // last sequence assigned to a write
		snaps    snapshotList
		bgErr    error // sticky: once set, writes fail with it
		// nextWAL is the WAL made ahead for the next switch (walnext.go).
		nextWAL walAhead
		// retiringWALs counts the WALs switched out whose sync and close
		// still run (walretire.go).
		retiringWALs int
		// walSyncErr is the first failed sync of a retired WAL, which
		// Close reports as it reports the active WAL's.
		walSyncErr error
		// groupsAwaitingWALs counts the sync groups' leaders waiting for
		// those (lead), a state tests wait for.
		groupsAwaitingWALs int
		// delayDebt is write delay owed under level0_slowdown_writes_trigger.
		delayDebt          time.Duration
		closed             bool
		flushing           bool
		runningCompactions int
		manualRunning      bool
		// closing: Close has begun; new writes are refused while the ones
		// in flight finish (closed: they have finished, and nothing more
		// is scheduled).
		closing bool
		// recoveryNotes are written to LOG after open: WAL damage that the
		// recovery mode let the open pass (data dropped or skipped).
		recoveryNotes []string
		stats         dbStats
		// readMarked are the tables queued for a read-triggered
		// compaction, readCompactions how many such compactions were
		// picked since Open (compaction_read.go).
		readMarked      []*fileMeta
		readCompactions uint64
	}
}

// Open opens (creating if missing) the database in dir.
func Open(dir string, opts *options.Options, cfg Config) (*DB, error) {
	if opts == nil {
		opts = options.Default()
	}
	db := &DB{dir: dir, walDir: opts.WALDir, opts: opts, fs: cfg.FS, merge: cfg.MergeOperator, tickers: cfg.Statistics.Recorder(), familyNames: cfg.ColumnFamilies,
		releaseMemory: cfg.ReleaseMemoryAfterCompact}
	db.purge.db = db
	if db.fs == nil {
		db.fs = DefaultFS
	}
	if cfg.FileOperations != nil {
		db.fs = countingFS{FS: db.fs, c: cfg.FileOperations}
	}
	if db.walDir == "" {
		db.walDir = dir
	}
	if err := db.prepareOptions(); err != nil {
		return nil, err
	}
	db.tables = newTableCache(db.opts.OpenFiles)
	o := db.opts
	db.readCompactions = !cfg.DisableReadCompactions && !o.ReadOnly && !o.DisableAutoCompactions && o.CompactionStyle == styleLevel
	db.bgCond = sync.NewCond(&db.mu)
	db.mu.vs.db = db
	db.def = newFamily(0, defaultFamilyName, db.numLevels)
	db.mu.stats.tickers = db.tickers
	db.mu.stats.init()
	if opts.ReadOnly {
		return db.openReadOnly()
	}
	if err := db.makeDirs(); err != nil {
		return nil, err
	}
	lock, err := db.fs.Lock(filepath.Join(dir, lockName))
	if err != nil {
		return nil, err
	}
	db.lock = lock
	if err := db.probeDirectIO(lockName); err != nil {
		db.closeFiles()
		return nil, err
	}
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
	db.opts = styleOptions(db.opts)
	o := db.opts
	db.numLevels = o.NumLevels
	if db.numLevels < 2 || db.numLevels > maxLevels {
		return fmt.Errorf("lsm: num_levels %d out of range [2, %d]", o.NumLevels, maxLevels)
	}
	if o.WALRecoveryMode < options.WALTolerateCorruptedTailRecords || o.WALRecoveryMode > options.WALSkipAnyCorruptedRecords {
		return fmt.Errorf("lsm: wal_recovery_mode %d out of range [0, 3]", o.WALRecoveryMode)
	}
	if o.CompactionPri < priByCompensatedSize || o.CompactionPri > priRoundRobin {
		return fmt.Errorf("lsm: compaction_pri %d out of range [0, 4]", o.CompactionPri)
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
	if mcfg.PrefixSize == 0 {
		mcfg.PrefixSize = o.PrefixSize
	}
	db.repFactory, db.repConfig = f, mcfg
	if db.blobOpts, err = parseBlobOptions(o); err != nil {
		return err
	}
	if err := db.prepareWALCompression(o); err != nil {
		return err
	}
	checksum, err := sst.ChecksumTypeFromRocksDB(o.ChecksumType)
	if err != nil {
		return fmt.Errorf("lsm: %w", err)
	}
	compressIndex, err := indexCompression(o)
	if err != nil {
		return err
	}
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
			Checksum:             checksum,
			CompressIndex:        compressIndex,
			FormatVersion:        tableFormatVersion(o, checksum),
		}
		if err := setPartitioning(&db.tableOpts[level], o); err != nil {
			return err
		}
	}
	db.applyL0FilterDefault(o.BloomBits)
	if err := db.preparePrefixOptions(o); err != nil {
		return err
	}
	if err := db.chooseTableFormats(o); err != nil {
		return err
	}
	if o.CacheSize > 0 {
		db.cache = sst.NewCache(o.CacheSize, o.CacheNumShardBits)
	}
	db.rows = newRowCache(o.RowCacheSize, -1)
	db.io = newFileIO(o, db.tickers)
	return checkDirectIOOptions(o)
}

func (db *DB) newMemTable(logNum uint64) (*memTable, error) {
	rep, err := db.repFactory(db.repConfig)
	if err != nil {
		return nil, fmt.Errorf("lsm: create memtable: %w", err)
	}
	db.mu.nextMem++
	db.refreshProcs()
	m := &memTable{rep: rep, id: db.mu.nextMem, logNum: logNum, limit: uint64(db.opts.WriteBufferSize), firstSeq: db.mu.lastSeq + 1,
		prefix: db.prefix}
	m.bloom = newMemBloom(db.memBloomBits, db.memBloomWhole)
	if pr, ok := rep.(memtable.Pointed); ok && db.memPoints {
		m.pointRep = pr
		if db.memGets.Swap(false) {
			m.attachPoints(newMemPoints(m.limit, pr))
		}
	}
	_, snapshots := rep.(memtable.SnapshotIters)
	m.poolIters = !snapshots
	m.refs.Store(1)
	return m, nil
}

// recover loads the MANIFEST and checks the DB's files against it
// (opencheck.go), replays the WALs past it into L0 tables under a fresh
// MANIFEST and a new WAL (walrecovery.go), and deletes the files it proved
// obsolete. DB.mu is held.
func (db *DB) recover() error {
	files, err := db.listFiles()
	if err != nil {
		return err
	}
	found, err := db.mu.vs.recover(db.numLevels, files.dbNames)
	if err != nil {
		return err
	}
	if err := db.mu.vs.families.notNamed(db.familyNames); err != nil {
		return err
	}
	if found {
		if err := db.verifyTables(); err != nil {
			return err
		}
		if err := db.checkBlobsTableFormat(); err != nil {
			return err
		}
		if err := db.checkUnfinishedFlushes(files, db.liveTables()); err != nil {
			return err
		}
		if err := db.verifyLogNumber(files); err != nil {
			return err
		}
	} else {
		if err := foreignByNames(db.dir, files.dbNames); err != nil {
			return err
		}
		if err := db.checkNoCurrent(files); err != nil {
			return err
		}
		if err := db.syncNewDBParents(); err != nil {
			return err
		}
		db.mu.vs.nextFileNum.Store(1)
		v, _ := (*version)(nil).apply(&versionEdit{}, db.numLevels)
		db.mu.vs.install(db.def, v)
	}
	db.markFileNumbersUsed(files)
	db.mu.lastSeq = db.mu.vs.lastSeq
	obsolete, err := db.recoverWALs(files)
	if err != nil {
		return err
	}
	db.visibleSeq.Store(db.mu.lastSeq)
	for _, f := range db.allFamilies() {
		f.publishReads()
	}
	for _, name := range db.familyNames {
		if db.familyByName(name) == nil {
			if _, err := db.createFamily(name); err != nil {
				return err
			}
		}
	}
	db.deleteObsoleteFiles(obsolete)
	return nil
}

// removeTables deletes the tables and blob files of an edit that no
// MANIFEST names.
func (db *DB) removeTables(edit *versionEdit) {
	for _, a := range edit.added {
		db.fs.Remove(tableName(db.dir, a.meta.num))
	}
	for _, f := range edit.blobAdded {
		db.fs.Remove(blobName(db.dir, f.num))
	}
}

// switchLog makes f, WAL logNum, the WAL of a new empty active memtable
// (DB.mu held). The WAL it replaces is synced and closed in the
// background (walretire.go).
func (db *DB) switchLog(fam *family, logNum uint64, f WritableFile) error {
	mem, err := db.newMemTable(logNum)
	if err != nil {
		f.Close()
		return err
	}
	if db.mu.logFile != nil {
		db.retireWAL(db.mu.logFile)
	}
	db.mu.logFile, db.mu.log, db.mu.logNum = f, db.newWALWriter(f), logNum
	db.mu.liveWALs = append(db.mu.liveWALs, logNum)
	db.retireActiveMemtable(fam, mem)
	db.moveIdleFamiliesTo(logNum, fam)
	return nil
}

// deleteObsoleteFiles removes the tables and blob files recovery proved
// obsolete (see obsoleteTables), WALs already flushed, old MANIFESTs and temporary files
// (DB.mu held).
func (db *DB) deleteObsoleteFiles(obsoleteTables map[uint64]bool) {
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
			case fileTable, fileBlob:
				del = dir == db.dir && obsoleteTables[num]
			case fileWAL:
				del = num < db.minLogNumber() && num != db.mu.logNum
			case fileManifest:
				del = dir == db.dir && num < db.mu.vs.manifestNum
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
// and deleting tables no version lists any more (while the DB holds its
// directory lock: fileguard.go).
func (db *DB) releaseVersion(v *version) {
	for _, files := range v.levels {
		for _, f := range files {
			if f.unref() {
				db.dropTableReader(f)
				db.removeLocked(tableName(db.dir, f.num))
			}
		}
	}
	db.unrefBlobs(v)
}

// writeInfoLog writes the LOG file whose version line tools/benchmark.sh
// reads (field 5 of the "RocksDB version:" line). A LOG that is not a
// regular file (a symbolic link, whose target creating it would truncate)
// is left alone and no LOG is written: it is best effort, as RocksDB's info
// log is.
func (db *DB) writeInfoLog(version string) {
	name := filepath.Join(db.dir, logName)
	if fi, err := os.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		return
	}
	f, err := db.fs.Create(name)
	if err != nil {
		return
	}
	now := time.Now().Format("2006/01/02-15:04:05.000000")
	fmt.Fprintf(f, "%s %d RocksDB version: %s\n", now, os.Getpid(), version)
	fmt.Fprintf(f, "%s %d Engine: godbbench native LSM\n", now, os.Getpid())
	for _, note := range db.mu.recoveryNotes {
		fmt.Fprintf(f, "%s %d %s\n", now, os.Getpid(), note)
	}
	f.Close()
}

// Close waits for background work, flushes memtables holding writes that
// skipped the WAL, and releases every file. Writes that begin once Close
// has begun fail with ErrClosed; those already queued finish first, a
// writer stalled for compaction included.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.mu.closing {
		db.mu.Unlock()
		if invariants.Enabled {
			checkClose("database", true)
		}
		return ErrClosed
	}
	// New writes are refused from here on. The ones in flight finish
	// first, with flushes and compactions still scheduled, so that a
	// writer stalled at the L0 stop trigger gets through, and every write
	// that skipped the WAL is in a memtable before Close looks for those.
	db.mu.closing = true
	for db.mu.writers.len() > 0 {
		db.bgCond.Wait()
	}
	// Groups handed off early may still be inserting (publish.go); their
	// failure is already the DB's background error.
	_ = db.waitPublished()
	needFlush := false
	families := db.allFamilies()
	for _, f := range families {
		needFlush = needFlush || f.mem.unlogged.Load()
		for _, m := range f.imm {
			needFlush = needFlush || m.unlogged.Load()
		}
	}
	db.mu.Unlock()
	var err error
	if needFlush {
		err = db.flush(true)
	}
	db.mu.Lock()
	db.mu.closed = true
	for db.mu.writers.len() > 0 || db.mu.flushing || db.mu.runningCompactions > 0 || db.mu.manualRunning {
		db.bgCond.Wait()
	}
	_ = db.waitPublished()
	// A retired WAL's failed sync is this Close's failure as the active
	// WAL's is: a power loss could take that WAL's tail and keep the
	// synced writes after it.
	db.waitRetiredWALs()
	if err == nil {
		err = db.mu.walSyncErr
	}
	if db.mu.log != nil {
		if ferr := db.mu.log.Flush(); ferr != nil && err == nil {
			err = ferr
		}
		if serr := db.mu.logFile.Sync(); serr != nil && err == nil && db.mu.bgErr == nil {
			err = serr
		}
	}
	db.mu.Unlock()
	db.bgWG.Wait()
	db.discardNextWAL()
	db.purge.close()
	for _, f := range families {
		db.closeFamily(f)
	}
	db.closeFiles()
	return err
}

// closeFamily drops the DB's references on f's memtables (those an open
// iterator's read state lists are released when it closes) and closes
// the readers of its tables without deleting them.
func (db *DB) closeFamily(f *family) {
	f.reads.clear()
	if f.mem != nil {
		f.mem.unref()
	}
	for _, m := range f.imm {
		m.unref()
	}
	db.mu.Lock()
	v := f.current
	f.current = nil
	db.mu.Unlock()
	if v != nil {
		for _, files := range v.levels {
			for _, t := range files {
				db.dropTableReader(t)
			}
		}
		closeBlobReaders(v)
	}
}

func (db *DB) closeFiles() {
	if db.mu.logFile != nil {
		db.mu.logFile.Close()
		db.mu.logFile = nil
	}
	if db.mu.vs.manifestFile != nil {
		db.mu.vs.manifestFile.Close()
		db.mu.vs.manifestFile = nil
	}
	if db.lock != nil {
		db.guard.shut()
		db.lock.Close()
		db.lock = nil
	}
}
