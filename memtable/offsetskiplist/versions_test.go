package offsetskiplist

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestVersionsOutsideTheTag adds versions whose trailers an inline tag
// cannot hold (a sequence below the first Add's, one 2^26 past it, a kind
// of 32 or more) next to inline ones, in every order, and checks Get and
// both iteration directions.
func TestVersionsOutsideTheTag(t *testing.T) {
	const b = 1000
	type entry struct {
		key  string
		seq  uint64
		kind base.Kind
	}
	adds := []entry{
		{"m", b, base.KindSet},                // inline, the base
		{"a", b - 7, base.KindSet},            // below the base: a record
		{"z", b + maxDelta, base.KindDelete},  // too far: a record
		{"k", b + 5, base.Kind(40)},           // kind too big: a record
		{"m", b + 3, base.KindMerge},          // inline node gets a chain
		{"m", b - 1, base.KindSet},            // older than the inline version
		{"a", b + 1, base.KindSet},            // newer than a record-only node
		{"z", b + 2, base.KindSet},            // older
		{"n", b + 9, base.KindSet},            // inline, alone
		{"m", b + maxDelta + 1, base.KindSet}, // newest of m, a record
		{"k", b + 4, base.KindSet},            // inline-able, into a chain
	}
	l := New(1 << 20)
	for _, e := range adds {
		if err := l.Add(e.seq, e.kind, []byte(e.key), []byte(fmt.Sprint(e.key, e.seq))); err != nil {
			t.Fatal(err)
		}
	}
	// Internal-key order: key ascending, sequence descending.
	want := []string{"a1001", "a993", "k1005", "k1004", "m67109865", "m1003", "m1000", "m999", "n1009", "z67109864", "z1002"}
	var got []string
	it := l.NewIter()
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, string(it.Value()))
		if want := fmt.Sprint(string(it.Key()), it.Seq()); string(it.Value()) != want {
			t.Fatalf("entry %q has value %q", want, it.Value())
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("forward %v, want %v", got, want)
	}
	got = got[:0]
	for ok := it.Last(); ok; ok = it.Prev() {
		got = append([]string{string(it.Value())}, got...)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("backward %v, want %v", got, want)
	}
	for _, c := range []struct {
		key      string
		snapshot uint64
		want     string
		kind     base.Kind
	}{
		{"m", base.MaxSeq, "m67109865", base.KindSet},
		{"m", b + 2, "m1000", base.KindSet},
		{"m", b + 3, "m1003", base.KindMerge},
		{"m", b - 1, "m999", base.KindSet},
		{"m", b - 2, "", 0},
		{"k", b + 5, "k1005", base.Kind(40)},
		{"z", b + 5, "z1002", base.KindSet},
		{"a", b, "a993", base.KindSet},
		{"n", b + 8, "", 0},
	} {
		v, k, ok := l.Get([]byte(c.key), c.snapshot)
		if ok != (c.want != "") || string(v) != c.want || k != c.kind {
			t.Errorf("Get(%q, %d) = %q %d %v, want %q %d", c.key, c.snapshot, v, k, ok, c.want, c.kind)
		}
	}
}

// TestNodeBytes pins the node sizes the package doc's bytes per entry come
// from: 8-byte keys, heights 1 and 2, no value and 50 bytes.
func TestNodeBytes(t *testing.T) {
	for _, c := range []struct {
		h      int
		kl, vl uint32
		want   uint64
	}{{1, 8, 0, 24}, {2, 8, 0, 28}, {1, 8, 50, 72}, {2, 8, 50, 76}, {1, 200, 0, 216}} {
		if got := nodeSize(c.h, c.kl, c.vl); got != c.want {
			t.Errorf("nodeSize(%d, %d, %d) = %d, want %d", c.h, c.kl, c.vl, got, c.want)
		}
	}
}

// TestEmptyValuedRecordsFillChunks adds enough empty-valued versions of one
// key to fill several of a small arena's 64 KiB chunks with 16-byte
// records, so some record ends exactly at its chunk's last byte. Writing
// such a record must form no pointer past it (under -race, checkptr
// rejects one that points outside its allocation), and every version must
// read back empty.
func TestEmptyValuedRecordsFillChunks(t *testing.T) {
	const versions = 3 * smallChunkBytes / 16
	l := New(8 << 20)
	key := []byte("k")
	for seq := uint64(1); seq <= versions; seq++ {
		if err := l.Add(seq, base.KindSet, key, nil); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	it := l.NewIter()
	for ok := it.First(); ok; ok = it.Next() {
		if len(it.Value()) != 0 || it.Seq() != versions-uint64(n) {
			t.Fatalf("entry %d: seq %d value %q", n, it.Seq(), it.Value())
		}
		n++
	}
	if n != versions {
		t.Fatalf("%d versions, want %d", n, versions)
	}
	for _, seq := range []uint64{1, versions / 2, versions} {
		if v, k, ok := l.Get(key, seq); !ok || k != base.KindSet || len(v) != 0 {
			t.Fatalf("Get at %d = %q %d %v", seq, v, k, ok)
		}
	}
}
