package lsm

import (
	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/rangedel"
)

// IterOptions bound an iterator.
type IterOptions struct {
	LowerBound []byte // inclusive
	UpperBound []byte // exclusive
	// KeysOnly promises Value will not be called; nothing changes in the
	// walk since values are loaded lazily anyway.
	KeysOnly bool
	// Snapshot reads as of a snapshot; nil reads the latest data.
	Snapshot *Snapshot
	// PrefixSameAsStart, TotalOrderSeek and AutoPrefix are RocksDB's
	// prefix_same_as_start, total_order_seek and auto_prefix_mode; they
	// take effect with a prefix extractor (iter_prefix.go).
	PrefixSameAsStart bool
	TotalOrderSeek    bool
	AutoPrefix        bool
}

// dbIter is the state of an Iterator (iter_handle.go), which documents
// its behaviour; it lives in a pooled iterBundle (iter_alloc.go).
type dbIter struct {
	db    *DB
	rs    *readState
	m     *mergingIter
	seq   uint64
	lower []byte
	upper []byte
	// boundBufs hold the copies of the lower and upper bounds.
	boundBufs [2][]byte
	valid     bool
	forward   bool   // m is at the visible entry of key
	key       []byte // current key (copied when walking backward)
	keyBuf    []byte // storage for copied keys
	seekBuf   []byte // storage for the key Value re-seeks to
	// succBuf holds SeekLE's target followed by a zero byte: the first
	// key after the target, which SeekLE seeks below.
	succBuf []byte
	// Walking backward without KeysOnly, the value of the newest visible
	// version is copied as the walk passes it (a 100-byte copy instead of
	// a re-seek of every source, which costs about 15x more).
	keysOnly bool
	valBuf   []byte
	haveVal  bool
	// Value at a merge operand merges the key's versions into ops.result
	// (merged) and leaves the stream at the next key, where Next resumes
	// (mergedNext: whether the stream is valid there).
	ops        operandStack
	merged     bool
	mergedNext bool
	err        error
	// dels are cursors over the range tombstone lists of the sources
	// (rangedel_read.go); empty when no source has any.
	dels []rangedel.Cursor
	// prefixOpts are the prefix seek settings (iter_prefix.go).
	prefixOpts prefixSeekOptions
	// chargeSeeks: SeekGE charges the tables it positions in vain
	// (compaction_read.go); levelStart is the index in m.children of the
	// first level iterator (the levels below L0, in order).
	chargeSeeks bool
	levelStart  int
}

// NewIter returns an iterator over the DB as of now (or o.Snapshot).
func (db *DB) NewIter(o *IterOptions) (*Iterator, error) {
	return db.newIter(db.def, o)
}

// newIter returns an iterator over family f.
func (db *DB) newIter(f *family, o *IterOptions) (*Iterator, error) {
	rs := f.reads.get()
	if rs == nil {
		return nil, ErrClosed
	}
	b := getBundle()
	it := &b.it
	it.db, it.rs, it.seq = db, rs, db.visibleSeq.Load()
	it.chargeSeeks = db.readCompactions
	if o != nil {
		if o.Snapshot != nil {
			it.seq = o.Snapshot.seq
		}
		it.keysOnly = o.KeysOnly
		// Copy the bounds, keeping an empty non-nil bound non-nil.
		if o.LowerBound != nil {
			it.lower = copyBound(&it.boundBufs[0], o.LowerBound)
		}
		if o.UpperBound != nil {
			it.upper = copyBound(&it.boundBufs[1], o.UpperBound)
		}
	}
	dels, err := rs.rangeDelCursors(db, b.dels[:0])
	if err != nil {
		rs.unref()
		putBundle(b)
		return nil, err
	}
	it.dels = dels
	children := b.children[:0]
	children = append(children, b.memIter(rs.mem))
	for i := len(rs.imm) - 1; i >= 0; i-- {
		children = append(children, b.memIter(rs.imm[i]))
	}
	for _, f := range rs.v.levels[0] {
		r, err := db.tableReader(f)
		if err != nil {
			for _, c := range children {
				c.Close()
			}
			rs.unref()
			putBundle(b)
			return nil, err
		}
		children = append(children, db.pinIter(r, b.tableIter(db, r, it.keysOnly)))
	}
	it.levelStart = len(children)
	for level := 1; level < len(rs.v.levels); level++ {
		if len(rs.v.levels[level]) > 0 {
			children = append(children, b.levelIter(db, rs.v.levels[level], it.keysOnly))
		}
	}
	b.merge = mergingIter{children: children, heap: b.heap[:0]}
	if len(children) > len(b.heap) {
		b.merge.heap = make([]mergeEntry, 0, len(children))
	}
	it.m = &b.merge
	if o != nil {
		it.setPrefixOptions(o)
	}
	return &Iterator{b: b}, nil
}

func (it *dbIter) aboveUpper(key []byte) bool {
	return it.upper != nil && compareKeys(key, it.upper) >= 0
}

func (it *dbIter) belowLower(key []byte) bool {
	return it.lower != nil && compareKeys(key, it.lower) < 0
}

// findForward settles on the first visible key at or after the stream's
// position, which is at the first entry of some user key.
func (it *dbIter) findForward(ok bool) bool {
	it.forward, it.merged = true, false
	for ok {
		key := it.m.Key()
		if it.aboveUpper(key) {
			break
		}
		if it.m.Seq() > it.seq {
			ok = it.m.Next()
			continue
		}
		switch it.kindAt() {
		case base.KindSet:
			it.key = key
			it.valid = true
			return true
		case base.KindMerge:
			// Value will merge by stepping the stream past this key, so
			// the key handed out must not live in the stream's memory.
			it.keyBuf = append(it.keyBuf[:0], key...)
			it.key = it.keyBuf
			it.valid = true
			return true
		}
		// A tombstone: skip the rest of this key.
		it.keyBuf = append(it.keyBuf[:0], key...)
		ok = it.skipKey(it.keyBuf)
	}
	it.valid = false
	it.err = it.m.Error()
	return false
}

// kindAt is the kind of the stream's entry for this iterator: a point
// entry that a range tombstone visible to it covers counts as a tombstone.
func (it *dbIter) kindAt() base.Kind {
	kind := it.m.Kind()
	if len(it.dels) > 0 && kind != base.KindDelete && it.covered(it.m.Key(), it.m.Seq()) {
		return base.KindDelete
	}
	return kind
}

// covered reports whether a range tombstone visible to the iterator
// deletes the entry (key, seq).
func (it *dbIter) covered(key []byte, seq uint64) bool {
	for i := range it.dels {
		if it.dels[i].Covering(key, it.seq) > seq {
			return true
		}
	}
	return false
}

// skipKey advances the stream past every entry of key.
func (it *dbIter) skipKey(key []byte) bool {
	for {
		if !it.m.Next() {
			return false
		}
		if compareKeys(it.m.Key(), key) != 0 {
			return true
		}
	}
}

// findBackward settles on the last visible key at or before the stream's
// position, which is at the last (oldest) entry of some user key.
func (it *dbIter) findBackward(ok bool) bool {
	it.forward, it.merged = false, false
	for ok {
		key := it.m.Key()
		if it.belowLower(key) {
			break
		}
		// Walk this key's versions from oldest to newest, remembering the
		// newest visible one.
		it.keyBuf = append(it.keyBuf[:0], key...)
		it.key = it.keyBuf
		visible, kind := false, base.KindDelete
		it.haveVal = false
		operands := 0 // merge operands met since the last value or deletion
		for {
			if it.m.Seq() <= it.seq {
				visible, kind = true, it.kindAt()
				switch {
				case it.keysOnly:
				case kind == base.KindSet:
					v, err := it.m.Value()
					if err != nil {
						it.valid, it.err = false, err
						return false
					}
					it.valBuf = append(it.valBuf[:0], v...)
					it.haveVal, operands = true, 0
				case kind == base.KindMerge && it.db.merge != nil:
					if !it.pushBackwardOperand(operands) {
						return false
					}
					operands++
				default:
					it.haveVal, operands = false, 0
				}
			}
			ok = it.m.Prev()
			if !ok || compareKeys(it.m.Key(), it.key) != 0 {
				break
			}
		}
		if !ok && it.m.Error() != nil {
			// A newer version of this key may be what failed.
			break
		}
		if visible && kind == base.KindMerge && operands > 0 {
			it.mergeBackward()
		}
		// A newest operand not merged above is merged when Value asks
		// (haveVal is false).
		if visible && (kind == base.KindSet || kind == base.KindMerge) {
			it.valid = true
			return true
		}
	}
	it.valid = false
	it.err = it.m.Error()
	return false
}

// First moves to the first key.
func (it *dbIter) First() bool {
	it.err = nil // a new positioning starts over
	it.beginSeek(nil, true)
	if it.lower != nil {
		return it.findForward(it.m.SeekGE(it.lower))
	}
	return it.findForward(it.m.First())
}

// Last moves to the last key.
func (it *dbIter) Last() bool {
	it.err = nil // a new positioning starts over
	it.beginSeek(nil, false)
	if it.upper != nil {
		return it.findBackward(it.m.SeekLT(it.upper))
	}
	return it.findBackward(it.m.Last())
}

// SeekGE moves to the first key >= key.
func (it *dbIter) SeekGE(key []byte) bool {
	it.err = nil // a new positioning starts over
	it.beginSeek(key, true)
	if it.belowLower(key) {
		key = it.lower
	}
	ok := it.m.SeekGE(key)
	if it.chargeSeeks {
		it.chargeSeek(key)
	}
	return it.findForward(ok)
}

// SeekLE moves to the last key <= key (RocksDB's SeekForPrev).
func (it *dbIter) SeekLE(key []byte) bool {
	it.err = nil // a new positioning starts over
	it.beginSeek(key, false)
	if it.upper != nil && compareKeys(key, it.upper) >= 0 {
		return it.findBackward(it.m.SeekLT(it.upper))
	}
	if it.belowLower(key) {
		it.valid = false
		return false
	}
	// The last key <= key is the last key < key+"\x00", its successor in
	// bytewise order: one positioning of every source, backwards, as
	// RocksDB's SeekForPrev. (A forward seek to key first, then a
	// backward one when key is missing, positioned every source twice,
	// and the Prev that usually follows a SeekLE a third time.)
	it.succBuf = append(append(it.succBuf[:0], key...), 0)
	return it.findBackward(it.m.SeekLT(it.succBuf))
}

// SeekLT moves to the last key < key.
func (it *dbIter) SeekLT(key []byte) bool {
	it.err = nil // a new positioning starts over
	it.beginSeek(nil, false)
	if it.upper != nil && compareKeys(key, it.upper) > 0 {
		key = it.upper
	}
	return it.findBackward(it.m.SeekLT(key))
}

// Next moves to the following key.
func (it *dbIter) Next() bool {
	if !it.valid {
		return false
	}
	if it.merged {
		return it.findForward(it.mergedNext)
	}
	if it.forward {
		if ok, done := it.soloNext(); done {
			return ok
		}
		it.keyBuf = append(it.keyBuf[:0], it.key...)
		return it.findForward(it.skipKey(it.keyBuf))
	}
	// Re-seek forward past the current key.
	ok := it.m.SeekGE(it.key)
	if ok && compareKeys(it.m.Key(), it.key) == 0 {
		ok = it.skipKey(it.key)
	}
	return it.findForward(ok)
}

// Prev moves to the preceding key.
func (it *dbIter) Prev() bool {
	if !it.valid {
		return false
	}
	if it.forward {
		// it.key points into a child's buffer, which the seek overwrites.
		it.keyBuf = append(it.keyBuf[:0], it.key...)
		return it.findBackward(it.m.SeekLT(it.keyBuf))
	}
	return it.findBackward(it.m.Valid())
}

// Valid reports whether the iterator is at a key.
func (it *dbIter) Valid() bool { return it.valid }

// Key is the current key, valid until the iterator moves.
func (it *dbIter) Key() []byte { return it.key }

// Value loads the current value, valid until the iterator moves.
func (it *dbIter) Value() ([]byte, error) {
	if !it.valid {
		return nil, nil
	}
	if it.merged {
		return it.ops.result, nil
	}
	if !it.forward && it.haveVal {
		return it.valBuf, nil
	}
	if !it.forward {
		// Reposition at the visible version of the current key.
		it.seekBuf = append(it.seekBuf[:0], it.key...)
		saved := it.seekBuf
		ok := it.m.SeekGE(saved)
		for ok && compareKeys(it.m.Key(), saved) == 0 && it.m.Seq() > it.seq {
			ok = it.m.Next()
		}
		if !ok || compareKeys(it.m.Key(), saved) != 0 {
			it.valid = false
			if it.err = it.m.Error(); it.err == nil {
				it.err = errIterLost
			}
			return nil, it.err
		}
		it.forward = true
		it.key = it.m.Key()
	}
	if it.m.Kind() == base.KindMerge {
		return it.mergeValue()
	}
	v, err := it.m.Value()
	if err != nil {
		it.valid, it.err = false, err
	}
	return v, err
}

// mergeValue merges the current key's versions from the stream's position,
// its newest visible entry, an operand: the operands down to a value, a
// tombstone or the key's last version, with the value if there is one. The
// stream is left at the next key.
func (it *dbIter) mergeValue() ([]byte, error) {
	if len(it.key) == 0 || len(it.keyBuf) == 0 || &it.key[0] != &it.keyBuf[0] {
		// After a reverse step's reposition the key is the stream's.
		it.keyBuf = append(it.keyBuf[:0], it.key...)
		it.key = it.keyBuf
	}
	it.ops.reset()
	ok := true
	for ok && compareKeys(it.m.Key(), it.key) == 0 {
		v, err := it.m.Value()
		if err != nil {
			it.valid, it.err = false, err
			return nil, err
		}
		kind := it.kindAt()
		if kind == base.KindMerge {
			it.ops.push(v)
			ok = it.m.Next()
			continue
		}
		if kind == base.KindSet {
			it.ops.setBase(v)
		}
		ok = it.skipKey(it.key)
		break
	}
	if !ok && it.m.Error() != nil {
		it.valid, it.err = false, it.m.Error()
		return nil, it.err
	}
	merged, err := it.ops.fullMerge(it.db.merge, it.key)
	if err != nil {
		it.valid, it.err = false, err
		return nil, err
	}
	it.merged, it.mergedNext = true, ok
	return merged, nil
}

// Error reports the first error met.
func (it *dbIter) Error() error { return it.err }

// Close releases the iterator's pinned tables.
func (it *dbIter) Close() error {
	err := it.m.Close()
	if it.rs != nil {
		it.rs.unrefReading(&it.db.purge)
		it.rs = nil
	}
	if it.err != nil {
		return it.err
	}
	return err
}

// errIterLost reports a key that vanished between a reverse step and the
// forward re-seek that loads its value, which a pinned version forbids.
var errIterLost = errorString("lsm: iterator lost its position")

type errorString string

func (e errorString) Error() string { return string(e) }
