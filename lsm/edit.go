package lsm

import (
	"encoding/binary"
	"fmt"
)

// ErrCorruptManifest is wrapped by errors decoding a MANIFEST. It wraps
// ErrCorruption.
var ErrCorruptManifest error = corruptKind("lsm: corrupt MANIFEST")

// corruptKind is a sentinel error that is also an ErrCorruption.
type corruptKind string

func (e corruptKind) Error() string { return string(e) }
func (e corruptKind) Unwrap() error { return ErrCorruption }

// Version-edit field tags (see the package comment).
const (
	tagLogNumber   = 1
	tagNextFileNum = 2
	tagLastSeq     = 3
	tagDeletedFile = 4
	tagNewFile     = 5
	tagFlushBegin  = 6
	tagFlushEnd    = 7
	// tagNewFileRangeDels is tagNewFile for a table holding range
	// tombstones: its fields, then the tombstone count.
	tagNewFileRangeDels = 32
)

// maxLevels bounds num_levels so a corrupt level number cannot size a slice.
const maxLevels = 64

// newFileEntry is one table added to a level.
type newFileEntry struct {
	level int
	meta  *fileMeta
}

// deletedFileEntry is one table removed from a level.
type deletedFileEntry struct {
	level   int
	fileNum uint64
}

// pendingFlush is a flush announced before it writes its table (tag 6):
// what open needs to prove the table obsolete if the process dies before
// the edit that adds it (pendingflush.go).
type pendingFlush struct {
	tableNum uint64 // the table the flush writes
	walNum   uint64 // the oldest WAL its memtables' logged writes are in
	// smallestSeq and largestSeq bound the sequences of its memtables'
	// writes, logged or not.
	smallestSeq, largestSeq uint64
	unlogged                bool // some of those writes skipped the WAL
}

// flushUnloggedFlag is bit 0 of a pending flush's flags.
const flushUnloggedFlag = 1

// versionEdit is one MANIFEST record: a change from one version to the next.
type versionEdit struct {
	hasLogNumber, hasNextFileNum, hasLastSeq bool
	logNumber                                uint64
	nextFileNum                              uint64
	lastSeq                                  uint64
	deleted                                  []deletedFileEntry
	added                                    []newFileEntry
	flushBegun                               []pendingFlush // tag 6
	flushEnded                               []uint64       // tag 7: the table numbers of finished flushes
	blobEdit                                                // blob_edit.go
	familyEdit                                              // edit_family.go
}

func (e *versionEdit) setLogNumber(n uint64)   { e.hasLogNumber, e.logNumber = true, n }
func (e *versionEdit) setNextFileNum(n uint64) { e.hasNextFileNum, e.nextFileNum = true, n }
func (e *versionEdit) setLastSeq(n uint64)     { e.hasLastSeq, e.lastSeq = true, n }

func appendBytes(b, field []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(field)))
	return append(b, field...)
}

// encode appends the edit's encoding to b.
func (e *versionEdit) encode(b []byte) []byte {
	b = e.encodeFamily(b)
	if e.hasLogNumber {
		b = binary.AppendUvarint(b, tagLogNumber)
		b = binary.AppendUvarint(b, e.logNumber)
	}
	if e.hasNextFileNum {
		b = binary.AppendUvarint(b, tagNextFileNum)
		b = binary.AppendUvarint(b, e.nextFileNum)
	}
	if e.hasLastSeq {
		b = binary.AppendUvarint(b, tagLastSeq)
		b = binary.AppendUvarint(b, e.lastSeq)
	}
	for _, d := range e.deleted {
		b = binary.AppendUvarint(b, tagDeletedFile)
		b = binary.AppendUvarint(b, uint64(d.level))
		b = binary.AppendUvarint(b, d.fileNum)
	}
	for _, a := range e.added {
		m := a.meta
		tag := uint64(tagNewFile)
		if m.numRangeDels > 0 {
			tag = tagNewFileRangeDels
		}
		b = binary.AppendUvarint(b, tag)
		b = binary.AppendUvarint(b, uint64(a.level))
		b = binary.AppendUvarint(b, m.num)
		b = binary.AppendUvarint(b, m.size)
		b = appendBytes(b, m.smallest)
		b = appendBytes(b, m.largest)
		b = binary.AppendUvarint(b, m.smallestSeq)
		b = binary.AppendUvarint(b, m.largestSeq)
		if m.numRangeDels > 0 {
			b = binary.AppendUvarint(b, m.numRangeDels)
		}
	}
	for _, p := range e.flushBegun {
		b = binary.AppendUvarint(b, tagFlushBegin)
		b = binary.AppendUvarint(b, p.tableNum)
		b = binary.AppendUvarint(b, p.walNum)
		b = binary.AppendUvarint(b, p.smallestSeq)
		b = binary.AppendUvarint(b, p.largestSeq)
		var flags uint64
		if p.unlogged {
			flags |= flushUnloggedFlag
		}
		b = binary.AppendUvarint(b, flags)
	}
	for _, num := range e.flushEnded {
		b = binary.AppendUvarint(b, tagFlushEnd)
		b = binary.AppendUvarint(b, num)
	}
	return e.encodeBlobs(b)
}

// editDecoder reads fields of an encoded edit.
type editDecoder struct {
	b   []byte
	err error
}

func (d *editDecoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = fmt.Errorf("%w: bad varint for %s", ErrCorruptManifest, what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *editDecoder) bytes(what string) []byte {
	n := d.uvarint(what)
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.err = fmt.Errorf("%w: %s length %d exceeds the %d bytes left", ErrCorruptManifest, what, n, len(d.b))
		return nil
	}
	out := append([]byte(nil), d.b[:n]...)
	d.b = d.b[n:]
	return out
}

func (d *editDecoder) level() int {
	l := d.uvarint("level")
	if d.err == nil && l >= maxLevels {
		d.err = fmt.Errorf("%w: level %d out of range", ErrCorruptManifest, l)
	}
	return int(l)
}

// decodeEdit parses one MANIFEST record.
func decodeEdit(b []byte) (*versionEdit, error) {
	e := &versionEdit{}
	d := editDecoder{b: b}
	for len(d.b) > 0 && d.err == nil {
		tag := d.uvarint("tag")
		if d.err != nil {
			break
		}
		switch tag {
		case tagLogNumber:
			e.setLogNumber(d.uvarint("log number"))
		case tagNextFileNum:
			e.setNextFileNum(d.uvarint("next file number"))
		case tagLastSeq:
			e.setLastSeq(d.uvarint("last sequence"))
		case tagDeletedFile:
			lvl := d.level()
			e.deleted = append(e.deleted, deletedFileEntry{level: lvl, fileNum: d.uvarint("file number")})
		case tagNewFile, tagNewFileRangeDels:
			lvl := d.level()
			m := &fileMeta{}
			m.num = d.uvarint("file number")
			m.size = d.uvarint("file size")
			m.smallest = d.bytes("smallest key")
			m.largest = d.bytes("largest key")
			m.smallestSeq = d.uvarint("smallest sequence")
			m.largestSeq = d.uvarint("largest sequence")
			if tag == tagNewFileRangeDels {
				m.numRangeDels = d.uvarint("range tombstone count")
				if d.err == nil && m.numRangeDels == 0 {
					d.err = fmt.Errorf("%w: table %d has a range tombstone count of 0", ErrCorruptManifest, m.num)
				}
			}
			if d.err == nil && compareKeys(m.smallest, m.largest) > 0 {
				d.err = fmt.Errorf("%w: table %d has smallest key above largest", ErrCorruptManifest, m.num)
			}
			e.added = append(e.added, newFileEntry{level: lvl, meta: m})
		case tagFlushBegin:
			p := pendingFlush{tableNum: d.uvarint("flush table number"), walNum: d.uvarint("flush WAL number")}
			p.smallestSeq = d.uvarint("flush smallest sequence")
			p.largestSeq = d.uvarint("flush largest sequence")
			flags := d.uvarint("flush flags")
			p.unlogged = flags&flushUnloggedFlag != 0
			if d.err == nil && flags&^flushUnloggedFlag != 0 {
				d.err = fmt.Errorf("%w: flush of table %d has unknown flags %#x", ErrCorruptManifest, p.tableNum, flags)
			}
			if d.err == nil && p.smallestSeq > p.largestSeq {
				d.err = fmt.Errorf("%w: flush of table %d has smallest sequence %d above largest %d", ErrCorruptManifest, p.tableNum, p.smallestSeq, p.largestSeq)
			}
			e.flushBegun = append(e.flushBegun, p)
		case tagFlushEnd:
			e.flushEnded = append(e.flushEnded, d.uvarint("finished flush table number"))
		case tagBlobFileAddition, tagBlobFileGarbage:
			e.decodeBlobField(tag, &d)
		case tagColumnFamily, tagColumnFamilyAdd, tagColumnFamilyDrop, tagMaxColumnFamily:
			e.decodeFamilyField(tag, &d)
		default:
			return nil, fmt.Errorf("%w: unknown tag %d", ErrCorruptManifest, tag)
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := e.checkFamily(); err != nil {
		return nil, err
	}
	return e, nil
}
