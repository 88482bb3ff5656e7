package lsm

import (
	"github.com/godbbench/godbbench/internal/base"
)

// levelIter concatenates the tables of one sorted level (1 and up), opening
// a table's iterator only when the walk reaches it.
//
// A table that cannot be opened or read stops the walk: the iterator is
// invalid with Error set, never skipping to the next table (whose keys
// would follow a gap). First, Last, SeekGE and SeekLT clear the error.
type levelIter struct {
	db    *DB
	files []*fileMeta
	idx   int          // current file, -1 or len(files) when exhausted
	cur   internalIter // iterator of files[idx]
	err   error
	// noFill: the level's reads do not fill the block cache
	// (sst.Iter.SetFillCache); set for compaction inputs.
	noFill bool
	// compaction: the walk is a compaction's input, read under
	// writeTables' fault guard (tableIterOptions.callerGuards).
	compaction bool
	// keysOnly: the walk never asks for values (IterOptions.KeysOnly).
	keysOnly bool
	// slot holds the adapter of a block-format table's iterator; rslot
	// the adapter of an rtable table's, made when the walk opens the
	// first one (an inline one would grow every iterator by ~200 bytes).
	slot  tableIter
	rslot *rtableIter
	// blk is cur when cur is a block-format table's adapter, else nil:
	// the per-entry calls (Next, Prev, Key, Seq, Kind, Value) go to it
	// directly rather than through the interface a second time; a scan
	// makes about five of them per entry of a level.
	blk *tableIter
	// pin is the reader of files[idx] while cur reads it, released with
	// cur (tablecache.go).
	pin *openTable
	// seekHit is, after SeekGE, the table whose key range holds the
	// target, or nil: what the read-compaction charge of the seek reads
	// (compaction_read.go), so that it searches the level no second time.
	seekHit *fileMeta
}

// newCompactionLevelIter returns a levelIter over compaction inputs, whose
// reads do not fill the block cache.
func newCompactionLevelIter(db *DB, files []*fileMeta) *levelIter {
	return &levelIter{db: db, files: files, idx: -1, noFill: true, compaction: true}
}

// open positions cur on file i (without moving it within the file).
func (l *levelIter) open(i int) bool {
	if l.cur != nil && l.idx == i {
		return true
	}
	l.closeCur()
	l.idx = i
	if i < 0 || i >= len(l.files) {
		return false
	}
	t, err := l.db.tableReader(l.files[i])
	if err != nil {
		l.err = err
		return false
	}
	l.pin = t
	if t.format == formatRTable && l.rslot == nil && !l.compaction {
		l.rslot = new(rtableIter)
	}
	l.cur = newTableIter(t, tableIterOptions{
		block: &l.slot, rtable: l.rslot, fillCache: !l.noFill, keysOnly: l.keysOnly,
		callerGuards: l.compaction, blobs: l.readBlobs(), tableReadIO: l.db.io.reads(l.compaction),
	})
	l.blk, _ = l.cur.(*tableIter)
	return true
}

func (l *levelIter) checkErr() {
	if l.cur != nil && l.err == nil {
		l.err = l.cur.Error()
	}
}

// forward skips to the first entry of the following files when the current
// one is exhausted.
func (l *levelIter) forward(ok bool) bool {
	for !ok {
		l.checkErr()
		if l.err != nil || !l.open(l.idx+1) {
			return false
		}
		ok = l.cur.First()
	}
	return true
}

func (l *levelIter) backward(ok bool) bool {
	for !ok {
		l.checkErr()
		if l.err != nil || !l.open(l.idx-1) {
			return false
		}
		ok = l.cur.Last()
	}
	return true
}

func (l *levelIter) First() bool {
	l.err = nil
	if !l.open(0) {
		return false
	}
	return l.forward(l.cur.First())
}

func (l *levelIter) Last() bool {
	l.err = nil
	if !l.open(len(l.files) - 1) {
		return false
	}
	return l.backward(l.cur.Last())
}

func (l *levelIter) SeekGE(key []byte) bool {
	l.err = nil
	i := findFile(l.files, key)
	l.noteSeek(i, key)
	if !l.open(i) {
		return false
	}
	return l.forward(l.cur.SeekGE(key))
}

// noteSeek sets seekHit for a forward seek to key whose first candidate
// is files[i] (the first table whose largest key is >= key).
func (l *levelIter) noteSeek(i int, key []byte) {
	l.seekHit = nil
	if i < len(l.files) && compareKeys(key, l.files[i].smallest) >= 0 {
		l.seekHit = l.files[i]
	}
}

func (l *levelIter) SeekLT(key []byte) bool {
	l.err = nil
	// The last file whose smallest key is < key.
	i := findFile(l.files, key)
	if i >= len(l.files) || compareKeys(l.files[i].smallest, key) >= 0 {
		i--
	}
	if !l.open(i) {
		return false
	}
	return l.backward(l.cur.SeekLT(key))
}

func (l *levelIter) Next() bool {
	if l.err != nil || l.cur == nil {
		return false
	}
	if l.blk != nil {
		return l.forward(l.blk.Next())
	}
	return l.forward(l.cur.Next())
}

func (l *levelIter) Prev() bool {
	if l.err != nil || l.cur == nil {
		return false
	}
	if l.blk != nil {
		return l.backward(l.blk.Prev())
	}
	return l.backward(l.cur.Prev())
}

func (l *levelIter) Key() []byte {
	if l.blk != nil {
		return l.blk.Key()
	}
	return l.cur.Key()
}

func (l *levelIter) Seq() uint64 {
	if l.blk != nil {
		return l.blk.Seq()
	}
	return l.cur.Seq()
}

func (l *levelIter) Kind() base.Kind {
	if l.blk != nil {
		return l.blk.Kind()
	}
	return l.cur.Kind()
}

func (l *levelIter) Value() ([]byte, error) {
	if l.blk != nil {
		return l.blk.Value()
	}
	return l.cur.Value()
}

func (l *levelIter) Error() error {
	l.checkErr()
	return l.err
}

func (l *levelIter) Close() error {
	l.checkErr()
	l.closeCur()
	return l.err
}

// closeCur closes the current table's iterator and releases its reader.
func (l *levelIter) closeCur() {
	if l.cur != nil {
		l.cur.Close()
		l.cur, l.blk = nil, nil
	}
	if l.pin != nil {
		l.db.releaseTable(l.pin)
		l.pin = nil
	}
}
