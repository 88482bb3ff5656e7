package lsm

import (
	"bytes"
	"testing"

	"github.com/godbbench/godbbench/sst"
)

// TestBlobEncodingExamples pins the example bytes of blob_index.go's and
// blob_edit.go's comments.
func TestBlobEncodingExamples(t *testing.T) {
	idx := blobIndex{fileNum: 12, offset: 34, size: 4096, compression: sst.CompressionNone}.encode(nil)
	if want := []byte{0x01, 0x0c, 0x22, 0x80, 0x20, 0x00}; !bytes.Equal(idx, want) {
		t.Errorf("blob index % x, want % x", idx, want)
	}
	if x, err := decodeBlobIndex(idx); err != nil || x.fileNum != 12 || x.offset != 34 || x.size != 4096 {
		t.Errorf("decoded %+v, %v", x, err)
	}
	e := &versionEdit{}
	e.blobAdded = append(e.blobAdded, &blobFileMeta{num: 12, count: 2, blobBytes: 53, size: 89, checksum: 0x11223344})
	e.blobGarbage = append(e.blobGarbage, blobGarbage{fileNum: 12, count: 1, bytes: 27})
	want := []byte{0x90, 0x03, 0x0c, 0x02, 0x35, 0x59, 0x44, 0x33, 0x22, 0x11, 0x91, 0x03, 0x0c, 0x01, 0x1b}
	if got := e.encode(nil); !bytes.Equal(got, want) {
		t.Errorf("blob edit % x, want % x", got, want)
	}
	d, err := decodeEdit(want)
	if err != nil || len(d.blobAdded) != 1 || *d.blobAdded[0] != (blobFileMeta{num: 12, count: 2, blobBytes: 53, size: 89, checksum: 0x11223344}) ||
		len(d.blobGarbage) != 1 || d.blobGarbage[0] != e.blobGarbage[0] {
		t.Errorf("decoded %+v %+v, %v", d.blobAdded, d.blobGarbage, err)
	}
}

// TestBlobEditRefused: garbage in an unknown file or beyond a file's bytes,
// and a file added twice, are corrupt MANIFESTs.
func TestBlobEditRefused(t *testing.T) {
	v, err := (*version)(nil).apply(&versionEdit{blobEdit: blobEdit{blobAdded: []*blobFileMeta{{num: 7, count: 2, blobBytes: 100}}}}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]blobEdit{
		"unknown file": {blobGarbage: []blobGarbage{{fileNum: 8, count: 1, bytes: 10}}},
		"overflow":     {blobGarbage: []blobGarbage{{fileNum: 7, count: 1, bytes: 101}}},
		"added twice":  {blobAdded: []*blobFileMeta{{num: 7, count: 1, blobBytes: 5}}},
	} {
		if _, err := v.apply(&versionEdit{blobEdit: e}, 4); err == nil {
			t.Errorf("%s: applied", name)
		}
	}
	all, err := v.apply(&versionEdit{blobEdit: blobEdit{blobGarbage: []blobGarbage{{fileNum: 7, count: 2, bytes: 100}}}}, 4)
	if err != nil || len(all.blobs) != 0 {
		t.Errorf("all garbage: %v, %d blob files left", err, len(all.blobs))
	}
}

// FuzzBlobIndexDecode: arbitrary bytes decode to an index that re-encodes
// to the same bytes, or fail; never a panic.
func FuzzBlobIndexDecode(f *testing.F) {
	f.Add(blobIndex{fileNum: 12, offset: 34, size: 4096}.encode(nil))
	f.Add([]byte{1, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := decodeBlobIndex(b)
		if err != nil {
			return
		}
		if again, err := decodeBlobIndex(x.encode(nil)); err != nil || again != x {
			t.Fatalf("re-decode of %+v: %+v, %v", x, again, err)
		}
	})
}

// FuzzBlobManifestDecode feeds the MANIFEST decoder edits holding blob
// fields, damaged arbitrarily: never a panic.
func FuzzBlobManifestDecode(f *testing.F) {
	e := &versionEdit{}
	e.blobAdded = append(e.blobAdded, &blobFileMeta{num: 12, count: 2, blobBytes: 53, size: 89, checksum: 7})
	e.blobGarbage = append(e.blobGarbage, blobGarbage{fileNum: 12, count: 1, bytes: 27})
	f.Add(e.encode(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := decodeEdit(data)
		if err != nil {
			return
		}
		if again, err := decodeEdit(e.encode(nil)); err != nil || len(again.blobAdded) != len(e.blobAdded) || len(again.blobGarbage) != len(e.blobGarbage) {
			t.Fatalf("re-decode: %v", err)
		}
	})
}
