package lsm

import (
	"bufio"
	"fmt"
	"io"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/fileops"
	"github.com/godbbench/godbbench/internal/rangedel"
	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/rtable"
	"github.com/godbbench/godbbench/sst"
)

// The table seam: the DB reads and writes tables of two formats, sst's
// block format and rtable's read-optimized format, through the small
// interfaces below. Which format a file has is decided by the magic number
// at its end when it is opened, never by the options, so a DB whose tables
// were written under another TableFormat opens and reads them all. Which
// format a new table gets is the DB's per-level choice (tableFormatFor).
//
// A reader is resolved to its format once, when the file is opened; Get
// is then one dynamic call on the interface, with no conversion or
// allocation per call.

// tableFormat names a table file format.
type tableFormat uint8

const (
	formatBlock  tableFormat = iota // sst's block format
	formatRTable                    // rtable's read-optimized format
)

// parseTableFormat maps an options.Options.TableFormat value to a format;
// the empty string is the block format.
func parseTableFormat(name string) (tableFormat, error) {
	switch name {
	case "", options.TableFormatBlock:
		return formatBlock, nil
	case options.TableFormatRTable:
		return formatRTable, nil
	}
	return 0, fmt.Errorf("lsm: %w", options.CheckTableFormat(name))
}

// chooseTableFormats sets the format and writer options of new tables per
// level from o.TableFormat. With "rtable", tables of the levels below L0
// are rtable tables and L0 keeps the block format: an L0 table is read
// once by the compaction that consumes it, and its point reads are few
// next to the sorted levels' (docs/BENCHMARKS.md, rtable in the engine).
// rtable tables code their values against a table dictionary
// (rtable.ValueDict, which falls back to per-value snappy for a table
// whose values do not recur) when the level's compression is anything but
// none, and take the block format's bloom bits per key and filter
// contents (prefixes, whole keys: prefix.go). Any compression
// type maps to the one codec: rtable has no per-value use for zstd's or
// lz4's block coding, and a dictionary needs no second flag.
func (db *DB) chooseTableFormats(o *options.Options) error {
	format, err := parseTableFormat(o.TableFormat)
	if err != nil {
		return err
	}
	db.tableFormats = make([]tableFormat, db.numLevels)
	db.rtableOpts = make([]rtable.WriterOptions, db.numLevels)
	for level := range db.numLevels {
		if format == formatRTable && level > 0 {
			db.tableFormats[level] = formatRTable
		}
		codec := rtable.ValueDict
		if db.tableOpts[level].Compression == sst.CompressionNone {
			codec = rtable.ValueRaw
		}
		db.rtableOpts[level] = rtable.WriterOptions{
			BloomBitsPerKey:  db.tableOpts[level].BloomBitsPerKey,
			ValueCompression: codec,
			FilterPrefixLen:  db.tableOpts[level].FilterPrefixLen,
			PrefixOnlyFilter: db.tableOpts[level].PrefixOnlyFilter,
		}
	}
	return nil
}

// tableReader is an open table of either format.
type tableReader interface {
	// Get finds the newest entry of userKey at or below snapshot and
	// calls fn with it (value valid during fn); see sst.Reader.Get.
	Get(userKey []byte, snapshot uint64, fn func(value []byte, kind base.Kind, seq uint64)) (bool, error)
	// ApproximateOffsetOf is the file offset where the entries of key
	// would start (approxsize.go).
	ApproximateOffsetOf(key []byte) uint64
	Close() error
}

// openTable is the open reader of a table file, held by its fileMeta.
type openTable struct {
	tableReader
	format tableFormat
	// rangeDels are the table's range tombstones (empty when it has none).
	rangeDels *rangedel.List
	// counts counts the close of the file (fs_counted.go); nil: none.
	counts *fileops.Counters
	// cached is the reader's state in the table cache (tablecache.go).
	cached tableCacheEntry
}

// props returns the table's properties.
func (t *openTable) props() tableProps {
	switch r := t.tableReader.(type) {
	case *rtable.Reader:
		return rtableProps(r.Properties())
	case *sst.Reader:
		return blockProps(r.Properties())
	}
	panic(fmt.Sprintf("lsm: table reader of type %T", t.tableReader))
}

// isRTable reports whether the table file f of size bytes ends with
// rtable's magic number. A file it cannot read is taken for the block
// format, whose reader then reports the failure.
func isRTable(f io.ReaderAt, size int64) bool {
	var tail [rtable.MagicLen]byte
	if size < rtable.MagicLen {
		return false
	}
	if _, err := f.ReadAt(tail[:], size-rtable.MagicLen); err != nil {
		return false
	}
	return rtable.HasMagic(tail[:])
}

// checkTableFooter checks the footer of the table file f of size bytes, in
// the format its magic number names, without opening a reader.
func checkTableFooter(f io.ReaderAt, size int64, name string) error {
	if isRTable(f, size) {
		return rtable.CheckFooter(f, size, name)
	}
	return sst.CheckFooter(f, size, name)
}

// tableProps are the properties of a table that the DB records in its
// MANIFEST and checks at recovery.
type tableProps struct {
	fileSize                 uint64
	smallestKey, largestKey  []byte
	smallestSeq, largestSeq  uint64
	numEntries, numDeletions uint64
	numRangeDels             uint64
}

func blockProps(p *sst.Properties) tableProps {
	return tableProps{
		fileSize: p.FileSize, smallestKey: p.SmallestKey, largestKey: p.LargestKey,
		smallestSeq: p.SmallestSeq, largestSeq: p.LargestSeq,
		numEntries: p.NumEntries, numDeletions: p.NumDeletions,
		numRangeDels: p.NumRangeDeletions,
	}
}

func rtableProps(p *rtable.Properties) tableProps {
	return tableProps{
		fileSize: p.FileSize, smallestKey: p.SmallestKey, largestKey: p.LargestKey,
		smallestSeq: p.SmallestSeq, largestSeq: p.LargestSeq,
		numEntries: p.NumEntries, numDeletions: p.NumDeletions,
		numRangeDels: p.NumRangeDeletions,
	}
}

// tableIterOptions say how newTableIter makes a table's iterator.
type tableIterOptions struct {
	// block and rtable, when not nil, are inline storage for the adapter
	// of the table's format (the iterator bundle's, a level walk's),
	// whose buffers are kept.
	block  *tableIter
	rtable *rtableIter
	// fillCache says whether block reads fill the block cache (rtable
	// has no cache).
	fillCache bool
	// keysOnly says that Value will not be called: rtable iterators then
	// never copy values (iter_rtable.go), and block-format ones read key
	// blocks alone (sst.Iter.SetKeysOnly).
	keysOnly bool
	// callerGuards says the caller reads the iterator under its own fault
	// guard (a flush or compaction: writeTables), so an rtable iterator is
	// used bare, its bytes in place, without rtableIter's copies.
	callerGuards bool
	// blobs, when set, is the DB through which a block-format iterator
	// resolves blob indexes to their values (blob_read.go); flushes and
	// compactions leave it nil to see the indexes.
	blobs *DB
	// tableReadIO is the read-ahead and rate limiter charge of block
	// reads (readio.go).
	tableReadIO
}

// newTableIter returns an iterator over t.
func newTableIter(t *openTable, o tableIterOptions) internalIter {
	switch r := t.tableReader.(type) {
	case *rtable.Reader:
		if o.callerGuards {
			return r.NewIter()
		}
		rt := o.rtable
		if rt == nil {
			rt = new(rtableIter)
		}
		rt.reset(r, o.keysOnly)
		return rt
	case *sst.Reader:
		block := o.block
		if block == nil {
			block = new(tableIter)
		}
		if block.own == nil {
			block.own = new(sst.Iter)
		}
		block.own.Reset(r)
		block.it = block.own
		block.it.SetFillCache(o.fillCache)
		block.it.SetKeysOnly(o.keysOnly)
		block.it.SetReadahead(o.readahead)
		block.it.SetReadCharge(o.charge)
		block.blobs.db = o.blobs
		return block
	}
	panic(fmt.Sprintf("lsm: table reader of type %T", t.tableReader))
}

// tableWriter builds one table of either format.
type tableWriter interface {
	Add(userKey []byte, seq uint64, kind base.Kind, value []byte) error
	EstimatedSize() uint64
	// CoverSeq widens the recorded sequence range to seq: writeTables
	// calls it once before finish with the largest sequence that the
	// entries added at sequence 0 had before the compaction zeroed them.
	CoverSeq(seq uint64)
	// setRangeDels gives the table range tombstones.
	setRangeDels(l *rangedel.List) error
	finish() (tableProps, error)
}

type blockWriter struct{ *sst.Writer }

func (w blockWriter) setRangeDels(l *rangedel.List) error {
	w.SetRangeDels(l)
	return nil
}

func (w blockWriter) finish() (tableProps, error) {
	p, err := w.Finish()
	return blockProps(&p), err
}

type rtableWriter struct{ *rtable.Writer }

func (w rtableWriter) setRangeDels(l *rangedel.List) error {
	w.SetRangeDels(l)
	return nil
}

func (w rtableWriter) finish() (tableProps, error) {
	p, err := w.Finish()
	return rtableProps(&p), err
}

// levelFormat returns the format of new tables for level (the block
// format for a DB built without options, as some tests build one).
func (db *DB) levelFormat(level int) tableFormat {
	if level < len(db.tableFormats) {
		return db.tableFormats[level]
	}
	return formatBlock
}

// newTableWriter returns a writer of a table for level, in the format the
// DB chose for that level (both formats store range tombstones). A bottommost compaction's
// output (no deeper level overlaps it) gets no filter with
// optimize_filters_for_hits, as RocksDB's table builder does: a lookup
// that reaches the last level mostly finds its key there. keysHint, at
// least the table's key count, sizes a block-format table's filter
// (sst.WriterOptions.ExpectedKeys).
func (db *DB) newTableWriter(bw *bufio.Writer, level int, bottommost bool, keysHint int) tableWriter {
	noFilter := bottommost && db.opts.OptimizeFiltersForHits
	if db.levelFormat(level) == formatRTable {
		o := db.rtableOpts[level]
		if noFilter {
			o.BloomBitsPerKey = 0
		}
		return rtableWriter{rtable.NewWriter(bw, o)}
	}
	o := db.tableOpts[level]
	if noFilter {
		o.BloomBitsPerKey = 0
	}
	o.ExpectedKeys = keysHint
	return blockWriter{sst.NewWriter(bw, o)}
}
