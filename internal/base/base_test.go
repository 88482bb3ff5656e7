package base

import (
	"bytes"
	"testing"
)

// TestTrailerLayout pins the packing and the stored bytes, which memtable
// nodes and the trailer comments of other packages' formats rely on.
func TestTrailerLayout(t *testing.T) {
	tr := MakeTrailer(7, KindSet)
	if uint64(tr) != 0x701 || tr.Seq() != 7 || tr.Kind() != KindSet {
		t.Fatalf("MakeTrailer(7, KindSet) = %#x (seq %d, kind %d)", uint64(tr), tr.Seq(), tr.Kind())
	}
	var b [TrailerLen]byte
	PutTrailer(b[:], tr)
	if want := []byte{1, 7, 0, 0, 0, 0, 0, 0}; !bytes.Equal(b[:], want) {
		t.Fatalf("stored trailer % x, want % x", b, want)
	}
	if got := DecodeTrailer(b[:]); got != tr {
		t.Fatalf("DecodeTrailer = %#x, want %#x", uint64(got), uint64(tr))
	}
	big := MakeTrailer(MaxSeq, KindDelete)
	PutTrailer(b[:], big)
	if want := []byte{0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}; !bytes.Equal(b[:], want) {
		t.Fatalf("stored MaxSeq trailer % x, want % x", b, want)
	}
	if big.Seq() != MaxSeq {
		t.Fatalf("MaxSeq round trip gave %d", big.Seq())
	}
}

// TestSeekTrailers checks that the search trailers bracket every version of
// their sequence and clamp sequences above MaxSeq.
func TestSeekTrailers(t *testing.T) {
	for _, k := range []Kind{KindDelete, KindSet} {
		e := MakeTrailer(9, k)
		if Compare([]byte("k"), SeekTrailer(9), []byte("k"), e) > 0 {
			t.Fatalf("SeekTrailer(9) sorts after %#x", uint64(e))
		}
		if Compare([]byte("k"), SeekForPrevTrailer(9), []byte("k"), e) < 0 {
			t.Fatalf("SeekForPrevTrailer(9) sorts before %#x", uint64(e))
		}
	}
	if SeekTrailer(^uint64(0)) != MakeTrailer(MaxSeq, KindMax) || SeekForPrevTrailer(MaxSeq+5).Seq() != MaxSeq {
		t.Fatal("search trailers do not clamp to MaxSeq")
	}
}

func TestCompare(t *testing.T) {
	type ik struct {
		key string
		tr  Trailer
	}
	// Ascending internal-key order.
	order := []ik{
		{"", MakeTrailer(1, KindSet)},
		{"a", MakeTrailer(9, KindSet)},
		{"a", MakeTrailer(9, KindDelete)},
		{"a", MakeTrailer(3, KindSet)},
		{"ab", MakeTrailer(MaxSeq, KindSet)},
		{"b", MakeTrailer(0, KindDelete)},
	}
	for i, a := range order {
		for j, b := range order {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare([]byte(a.key), a.tr, []byte(b.key), b.tr); got != want {
				t.Fatalf("Compare(%q/%#x, %q/%#x) = %d, want %d", a.key, uint64(a.tr), b.key, uint64(b.tr), got, want)
			}
		}
	}
}

func TestKindValid(t *testing.T) {
	for k := 0; k < 256; k++ {
		if want := k <= 2 || Kind(k) == KindBlobIndex; Kind(k).Valid() != want {
			t.Fatalf("Kind(%d).Valid() = %v", k, !want)
		}
	}
}
