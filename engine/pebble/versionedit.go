package pebble

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// A decoder of Pebble's version edits, the records of its MANIFEST
// (internal/manifest/version_edit.go in Pebble v2.1.7 writes and reads
// them), written for the open check (manifestcheck.go), which needs the
// tables an edit adds and removes, the file and sequence numbers it sets,
// and nothing of the keys.
//
// An edit is a run of fields to the end of its record. A field is a tag,
// a uvarint, then the tag's values; "uvarint" is Go's and LevelDB's
// base-128 varint, "bytes" is a uvarint length then that many bytes, a
// level is a uvarint below 7:
//
//	1    comparator name: bytes
//	2    log number (the oldest WAL still needed): uvarint
//	3    next file number: uvarint
//	4    last sequence number: uvarint
//	5    compaction pointer: level, bytes (RocksDB's; ignored)
//	6    deleted table: level, table number
//	7    new table: level, table number, size, smallest key bytes,
//	     largest key bytes (no sequence numbers)
//	9    previous log number: uvarint
//	100  new table 2: as 7, then smallest and largest sequence number
//	102  new table 3: level, table number, path id, size, then as 100
//	103  new table 4: as 100, then custom fields (below)
//	104  new table 5: level, table number, size, one byte of bounds flags
//	     (bit 0: the table holds point keys), the smallest and largest
//	     point key (bytes each) when bit 0 is set, the smallest and largest
//	     range key (bytes each), smallest and largest sequence number, then
//	     custom fields
//	105  created backing table: table number, size
//	106  removed backing table: table number
//	107  new blob file: blob file id, file number, size, value size,
//	     creation time (uvarints)
//	108  deleted blob file: blob file id, file number
//	200-203  column family fields: Pebble has none, an error
//
// Any other tag is an error, as in Pebble. The custom fields of tags 103
// and 104 are each a uvarint custom tag then its value, ended by custom
// tag 1 (no value):
//
//	2   marked for compaction: bytes, exactly 1 byte
//	6   creation time: bytes holding exactly one uvarint
//	65  path id: not supported, an error
//	66  virtual table: the number of its backing table, uvarint
//	67  synthetic prefix: bytes
//	68  synthetic suffix: bytes
//	69  blob references: uvarint depth, uvarint count n, then n pairs of
//	    uvarints (blob file id, value size)
//
// Any other custom tag with bit 6 (64) set is an error; without it, its
// value is bytes and is skipped.

// maxLevels is Pebble's number of LSM levels.
const maxLevels = 7

// versionEdit is what the open check keeps of one edit. Decoding into an
// edit reuses its slices.
type versionEdit struct {
	hasLogNum, hasNextFileNum, hasLastSeq bool
	logNum, nextFileNum, lastSeq          uint64

	added   []addedTable
	deleted []deletedTable
	// backings are the backing tables an edit creates, removed the ones it
	// removes (virtual tables; numbers of files on disk).
	backings, removedBackings []uint64
	// blobFiles and deletedBlobFiles are file numbers of blob files.
	blobFiles, deletedBlobFiles []uint64
}

// addedTable is a table an edit puts on a level.
type addedTable struct {
	level    int
	num      uint64
	smallest uint64 // smallest sequence number
	largest  uint64 // largest sequence number
	hasSeqs  bool   // false for tag 7, which records none
	backing  uint64 // the file on disk: num, or the backing of a virtual table
	// lo and hi are the smallest and largest user key of the table (point
	// and range keys), slices of the edit's bytes.
	lo, hi []byte
}

// widen widens t's key range to hold the internal keys lo and hi: a user
// key, then an 8-byte trailer (sequence number and kind).
func (t *addedTable) widen(lo, hi []byte) {
	lo, hi = userKey(lo), userKey(hi)
	if t.lo == nil || bytes.Compare(lo, t.lo) < 0 {
		t.lo = lo
	}
	if t.hi == nil || bytes.Compare(hi, t.hi) > 0 {
		t.hi = hi
	}
}

// userKey is the user key of an internal key.
func userKey(ikey []byte) []byte {
	if len(ikey) < 8 {
		return ikey[:0:0]
	}
	return ikey[: len(ikey)-8 : len(ikey)-8]
}

// deletedTable is a table an edit removes from a level.
type deletedTable struct {
	level int
	num   uint64
}

// editDecoder reads the fields of one edit.
type editDecoder struct {
	b   []byte
	off int
	err error // the first error; every read after it returns zero
}

func (d *editDecoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("at byte %d of a version edit: %s", d.off, fmt.Sprintf(format, args...))
	}
}

func (d *editDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.off += n
	return v
}

func (d *editDecoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)-d.off) {
		d.fail("a field of %d bytes past the end of the edit", n)
		return nil
	}
	s := d.b[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

func (d *editDecoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if d.off >= len(d.b) {
		d.fail("edit cut short")
		return 0
	}
	c := d.b[d.off]
	d.off++
	return c
}

func (d *editDecoder) level() int {
	l := d.uvarint()
	if d.err == nil && l >= maxLevels {
		d.fail("level %d", l)
		return 0
	}
	return int(l)
}

// decodeVersionEdit decodes the edit in b into e, replacing what e held.
func decodeVersionEdit(b []byte, e *versionEdit) error {
	*e = versionEdit{
		added: e.added[:0], deleted: e.deleted[:0],
		backings: e.backings[:0], removedBackings: e.removedBackings[:0],
		blobFiles: e.blobFiles[:0], deletedBlobFiles: e.deletedBlobFiles[:0],
	}
	d := editDecoder{b: b}
	for d.err == nil && d.off < len(b) {
		switch tag := d.uvarint(); tag {
		case 1:
			d.bytes()
		case 2:
			e.logNum, e.hasLogNum = d.uvarint(), true
		case 3:
			e.nextFileNum, e.hasNextFileNum = d.uvarint(), true
		case 4:
			e.lastSeq, e.hasLastSeq = d.uvarint(), true
		case 5:
			d.level()
			d.bytes()
		case 6:
			level := d.level()
			e.deleted = append(e.deleted, deletedTable{level: level, num: d.uvarint()})
		case 7, 100, 102, 103, 104:
			e.added = append(e.added, d.newTable(tag))
		case 9:
			d.uvarint()
		case 105:
			e.backings = append(e.backings, d.uvarint())
			d.uvarint()
		case 106:
			e.removedBackings = append(e.removedBackings, d.uvarint())
		case 107:
			d.uvarint()
			e.blobFiles = append(e.blobFiles, d.uvarint())
			d.uvarint()
			d.uvarint()
			d.uvarint()
		case 108:
			d.uvarint()
			e.deletedBlobFiles = append(e.deletedBlobFiles, d.uvarint())
		default:
			if d.err == nil {
				d.fail("unknown tag %d", tag)
			}
		}
	}
	return d.err
}

// newTable decodes the values of a new-table field with tag.
func (d *editDecoder) newTable(tag uint64) addedTable {
	t := addedTable{level: d.level(), num: d.uvarint()}
	t.backing = t.num
	if tag == 102 {
		d.uvarint() // path id
	}
	d.uvarint() // size
	if tag == 104 {
		if bounds := d.byte(); bounds&1 != 0 {
			t.widen(d.bytes(), d.bytes())
		} else if bounds&6 != 0 {
			d.fail("a table without point keys has point key bounds (flags %#x)", bounds)
		}
	}
	t.widen(d.bytes(), d.bytes())
	if tag != 7 {
		t.smallest, t.largest, t.hasSeqs = d.uvarint(), d.uvarint(), true
	}
	if tag != 103 && tag != 104 {
		return t
	}
	for d.err == nil {
		switch custom := d.uvarint(); custom {
		case 1:
			return t
		case 2:
			if len(d.bytes()) != 1 && d.err == nil {
				d.fail("marked-for-compaction field not 1 byte")
			}
		case 6:
			if f := d.bytes(); d.err == nil {
				if _, n := binary.Uvarint(f); n != len(f) {
					d.fail("bad creation time")
				}
			}
		case 66:
			t.backing = d.uvarint()
		case 69:
			d.uvarint() // depth
			for n := d.uvarint(); n > 0 && d.err == nil; n-- {
				d.uvarint()
				d.uvarint()
			}
		default:
			if custom&64 != 0 {
				d.fail("custom field %d not supported", custom)
			} else {
				d.bytes() // 67, 68 and fields safe to ignore
			}
		}
	}
	return t
}
