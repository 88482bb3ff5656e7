package lsm

import (
	"encoding/binary"
	"fmt"
	"math"
)

// MANIFEST records of column families, after RocksDB's VersionEdit (the
// same tag numbers), as fields of a version edit (edit.go):
//
//	tag 200, column family:      uvarint family id; the edit's other
//	                             per-family fields (tables added and
//	                             deleted, log number, flush records) are
//	                             that family's. Without it they are the
//	                             default family's (id 0).
//	tag 201, column family add:  the new family's name (a byte string);
//	                             the family's id is the edit's tag 200.
//	tag 202, column family drop: no payload; drops the edit's family.
//	tag 203, max column family:  uvarint: the highest family id created.
//
// So the edit creating family 1 named "column_family_name_000001" is
// c8 01 01 c9 01 19 followed by the name's 25 bytes, and an edit adding a
// table to it begins with c8 01 01. An edit for the default family never
// carries tag 200, so a DB with only the default family writes the
// MANIFEST it wrote before families existed. A family id above 2^32-1, a
// tag 200 or 203 written twice, and an add or drop of family 0 are
// ErrCorruptManifest.
const (
	tagColumnFamily     = 200
	tagColumnFamilyAdd  = 201
	tagColumnFamilyDrop = 202
	tagMaxColumnFamily  = 203
)

// familyEdit is the column-family part of a version edit.
type familyEdit struct {
	family       uint32 // tag 200; 0: the default family
	addFamily    bool   // tag 201
	familyName   string // tag 201's name
	dropFamily   bool   // tag 202
	hasMaxFamily bool   // tag 203
	maxFamily    uint32
}

func (e *familyEdit) encodeFamily(b []byte) []byte {
	if e.family != 0 {
		b = binary.AppendUvarint(b, tagColumnFamily)
		b = binary.AppendUvarint(b, uint64(e.family))
	}
	if e.addFamily {
		b = binary.AppendUvarint(b, tagColumnFamilyAdd)
		b = appendBytes(b, []byte(e.familyName))
	}
	if e.dropFamily {
		b = binary.AppendUvarint(b, tagColumnFamilyDrop)
	}
	if e.hasMaxFamily {
		b = binary.AppendUvarint(b, tagMaxColumnFamily)
		b = binary.AppendUvarint(b, uint64(e.maxFamily))
	}
	return b
}

// decodeFamilyField reads the payload of a column-family tag.
func (e *familyEdit) decodeFamilyField(tag uint64, d *editDecoder) {
	switch tag {
	case tagColumnFamily:
		if e.family != 0 {
			d.err = fmt.Errorf("%w: two column family ids in one edit", ErrCorruptManifest)
			return
		}
		e.family = d.familyID("column family")
	case tagColumnFamilyAdd:
		e.addFamily = true
		e.familyName = string(d.bytes("column family name"))
	case tagColumnFamilyDrop:
		e.dropFamily = true
	case tagMaxColumnFamily:
		if e.hasMaxFamily {
			d.err = fmt.Errorf("%w: two max column family records in one edit", ErrCorruptManifest)
			return
		}
		e.hasMaxFamily, e.maxFamily = true, d.familyID("max column family")
	}
}

// checkFamily refuses an edit that adds or drops the default family; it
// runs once the whole edit is decoded, as tag 200 may follow tag 201.
func (e *familyEdit) checkFamily() error {
	if e.family == 0 && (e.addFamily || e.dropFamily) {
		return fmt.Errorf("%w: column family add or drop without a family id", ErrCorruptManifest)
	}
	return nil
}

func (d *editDecoder) familyID(what string) uint32 {
	id := d.uvarint(what)
	if d.err == nil && id > math.MaxUint32 {
		d.err = fmt.Errorf("%w: %s %d out of range", ErrCorruptManifest, what, id)
	}
	return uint32(id)
}
