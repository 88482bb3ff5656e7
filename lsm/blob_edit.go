package lsm

import (
	"encoding/binary"
	"fmt"
	"maps"
)

// MANIFEST records of blob files, after RocksDB's BlobFileAddition and
// BlobFileGarbage (the same tag numbers), as fields of a version edit
// (edit.go; integers are uvarints unless said otherwise):
//
//	tag 400, blob file addition:
//	  uvarint  blob file number
//	  uvarint  record count
//	  uvarint  blob bytes (the sum of the records' lengths, package blob)
//	  uvarint  file size
//	  4 bytes  CRC-32C of the whole file, little endian
//
//	tag 401, blob file garbage (added to what earlier edits recorded):
//	  uvarint  blob file number
//	  uvarint  garbage record count
//	  uvarint  garbage blob bytes
//
// So the addition of blob file 12 with 2 records, 53 blob bytes, 89 bytes
// and checksum 0x11223344 is 90 03 0c 02 35 59 44 33 22 11, and 1 record
// of 27 bytes of garbage in it is 91 03 0c 01 1b.
//
// A file whose garbage reaches all of its blob bytes leaves the version.
// An edit adding a file the version lists, or recording garbage in a file
// it does not list or beyond the file's records, is refused as corrupt.
const (
	tagBlobFileAddition = 400
	tagBlobFileGarbage  = 401
)

// blobGarbage is one blob file's garbage recorded by an edit.
type blobGarbage struct {
	fileNum      uint64
	count, bytes uint64
}

// blobEdit is the blob part of a version edit.
type blobEdit struct {
	blobAdded   []*blobFileMeta
	blobGarbage []blobGarbage
}

func (e *blobEdit) encodeBlobs(b []byte) []byte {
	for _, f := range e.blobAdded {
		b = binary.AppendUvarint(b, tagBlobFileAddition)
		b = binary.AppendUvarint(b, f.num)
		b = binary.AppendUvarint(b, f.count)
		b = binary.AppendUvarint(b, f.blobBytes)
		b = binary.AppendUvarint(b, f.size)
		b = binary.LittleEndian.AppendUint32(b, f.checksum)
	}
	for _, g := range e.blobGarbage {
		b = binary.AppendUvarint(b, tagBlobFileGarbage)
		b = binary.AppendUvarint(b, g.fileNum)
		b = binary.AppendUvarint(b, g.count)
		b = binary.AppendUvarint(b, g.bytes)
	}
	return b
}

// decodeBlobField reads the field of tag (one of the two above).
func (e *blobEdit) decodeBlobField(tag uint64, d *editDecoder) {
	switch tag {
	case tagBlobFileAddition:
		f := &blobFileMeta{}
		f.num = d.uvarint("blob file number")
		f.count = d.uvarint("blob count")
		f.blobBytes = d.uvarint("blob bytes")
		f.size = d.uvarint("blob file size")
		if d.err == nil && len(d.b) < 4 {
			d.err = fmt.Errorf("%w: blob file checksum cut short", ErrCorruptManifest)
		}
		if d.err == nil {
			f.checksum = binary.LittleEndian.Uint32(d.b)
			d.b = d.b[4:]
			e.blobAdded = append(e.blobAdded, f)
		}
	case tagBlobFileGarbage:
		g := blobGarbage{fileNum: d.uvarint("blob file number")}
		g.count = d.uvarint("garbage count")
		g.bytes = d.uvarint("garbage bytes")
		e.blobGarbage = append(e.blobGarbage, g)
	}
}

// applyBlobs returns the blob files of the version after e, from those of
// v (nil for the first edit).
func (v *version) applyBlobs(e *versionEdit) (map[uint64]blobFileState, error) {
	if len(e.blobAdded) == 0 && len(e.blobGarbage) == 0 {
		if v == nil {
			return nil, nil
		}
		return v.blobs, nil // versions never change their map
	}
	out := map[uint64]blobFileState{}
	if v != nil {
		out = maps.Clone(v.blobs)
		if out == nil {
			out = map[uint64]blobFileState{}
		}
	}
	for _, f := range e.blobAdded {
		if _, ok := out[f.num]; ok {
			return nil, fmt.Errorf("%w: Blob file #%d already exists", ErrCorruptManifest, f.num)
		}
		out[f.num] = blobFileState{meta: f}
	}
	for _, g := range e.blobGarbage {
		s, ok := out[g.fileNum]
		if !ok {
			return nil, fmt.Errorf("%w: Blob file #%d not found", ErrCorruptManifest, g.fileNum)
		}
		// Compared before adding: a sum past 2^64 would wrap below the
		// limits (and could make the file look all garbage).
		if g.count > s.meta.count-s.garbageCount || g.bytes > s.meta.blobBytes-s.garbageBytes {
			return nil, fmt.Errorf("%w: Garbage overflow for blob file #%d", ErrCorruptManifest, g.fileNum)
		}
		s.garbageCount += g.count
		s.garbageBytes += g.bytes
		if s.garbageBytes == s.meta.blobBytes {
			delete(out, g.fileNum) // all garbage: obsolete
			continue
		}
		out[g.fileNum] = s
	}
	return out, nil
}

// snapshotBlobs adds v's blob files and their garbage to snap, the first
// edit of a new MANIFEST.
func (v *version) snapshotBlobs(snap *versionEdit) {
	for _, s := range v.blobs {
		snap.blobAdded = append(snap.blobAdded, s.meta)
		if s.garbageBytes > 0 || s.garbageCount > 0 {
			snap.blobGarbage = append(snap.blobGarbage, blobGarbage{fileNum: s.meta.num, count: s.garbageCount, bytes: s.garbageBytes})
		}
	}
}
