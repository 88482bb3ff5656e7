package skiplist

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestGetFromMatchesGet: versions of a few hundred keys added in random
// sequence order; from the reference of each key's newest version (as the
// point index keeps it), GetFrom reads what Get reads at every snapshot
// around every version, EntryAt names that version, and every reference
// is below RefBound of the list's memory.
func TestGetFromMatchesGet(t *testing.T) {
	for _, size := range []uint64{64 << 10, 64 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			l := NewSized(size)
			defer l.Release()
			rng := rand.New(rand.NewPCG(3, size))
			type version struct {
				ref uint32
				tr  base.Trailer
			}
			newest := map[string]version{}
			seqs := map[string][]uint64{}
			for _, s := range rng.Perm(5000) {
				key := fmt.Sprintf("k%04d", rng.IntN(500))
				seq := uint64(s) + 1
				kind := base.KindSet
				if s%7 == 0 {
					kind = base.KindDelete
				}
				ref, err := l.AddRef(seq, kind, []byte(key), []byte(fmt.Sprint(seq)))
				if err != nil {
					t.Fatal(err)
				}
				if bound := l.RefBound(l.ApproximateMemoryUsage()); uint64(ref) >= bound {
					t.Fatalf("ref %#x at %d bytes held, bound %#x", ref, l.ApproximateMemoryUsage(), bound)
				}
				if k, tr := l.EntryAt(ref); string(k) != key || tr != base.MakeTrailer(seq, kind) {
					t.Fatalf("EntryAt(%#x) = %q %#x, added %q seq %d", ref, k, uint64(tr), key, seq)
				}
				if tr := base.MakeTrailer(seq, kind); tr > newest[key].tr {
					newest[key] = version{ref, tr}
				}
				seqs[key] = append(seqs[key], seq)
			}
			for key, v := range newest {
				for _, s := range seqs[key] {
					for _, snap := range []uint64{s - 1, s, s + 1, base.MaxSeq} {
						gv, gk, gok := l.GetFrom(v.ref, []byte(key), snap)
						wv, wk, wok := l.Get([]byte(key), snap)
						if gok != wok || gk != wk || string(gv) != string(wv) {
							t.Fatalf("%q at %d: GetFrom (%q, %v, %v), Get (%q, %v, %v)", key, snap, gv, gk, gok, wv, wk, wok)
						}
					}
				}
			}
		})
	}
}
