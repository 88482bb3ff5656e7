package lsm

import (
	"errors"
	"math"
	"testing"
)

// TestBlobGarbageWrapRefused: garbage that would take a blob file's count
// or bytes past 2^64 (wrapping them below its totals, which could make the
// file look all garbage and obsolete) is a corrupt MANIFEST, like garbage
// past the totals; garbage within them applies.
func TestBlobGarbageWrapRefused(t *testing.T) {
	added, err := (*version)(nil).applyBlobs(&versionEdit{blobEdit: blobEdit{blobAdded: []*blobFileMeta{{num: 7, count: 10, blobBytes: 1000}}}})
	if err != nil {
		t.Fatal(err)
	}
	v := &version{blobs: added}
	some, err := v.applyBlobs(&versionEdit{blobEdit: blobEdit{blobGarbage: []blobGarbage{{fileNum: 7, count: 3, bytes: 500}}}})
	if err != nil || some[7].garbageCount != 3 || some[7].garbageBytes != 500 {
		t.Fatalf("garbage within the totals: %+v, %v", some[7], err)
	}
	v = &version{blobs: some}
	for _, g := range []blobGarbage{
		{fileNum: 7, count: math.MaxUint64 - 1, bytes: 1},
		{fileNum: 7, count: 1, bytes: math.MaxUint64 - 499},
		{fileNum: 7, count: 8, bytes: 1},
	} {
		if _, err := v.applyBlobs(&versionEdit{blobEdit: blobEdit{blobGarbage: []blobGarbage{g}}}); !errors.Is(err, ErrCorruptManifest) {
			t.Errorf("garbage %+v over %+v: %v, want ErrCorruptManifest", g, some[7], err)
		}
	}
}
