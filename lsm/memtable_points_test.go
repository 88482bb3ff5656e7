package lsm

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/skiplist"
)

// pointsModel is a memtable with a point index over a skip list, and a
// record of what was added.
type pointsModel struct {
	m        *memTable
	versions map[string][]base.Trailer // every version of each key
}

// newPointsModel sizes the index for a memtable of limit bytes.
func newPointsModel(limit uint64) *pointsModel {
	rep := skiplist.NewSized(limit)
	return newPointsModelOf(rep, limit, newMemPoints(limit, rep))
}

func newPointsModelOf(rep *skiplist.List, limit uint64, p *memPoints) *pointsModel {
	m := &memTable{rep: rep, limit: limit, pointRep: rep}
	if p != nil {
		m.attachPoints(p)
	}
	m.refs.Store(1)
	return &pointsModel{m: m, versions: map[string][]base.Trailer{}}
}

// addRandom adds adds versions of random keys below keys-keys/10 (the
// last tenth never added), a fifth of them deletions, in random sequence
// order.
func (pm *pointsModel) addRandom(t *testing.T, rng *rand.Rand, keys, adds int) {
	t.Helper()
	for _, s := range rng.Perm(adds) {
		key := pointsKey(rng.IntN(keys - keys/10))
		kind := base.KindSet
		if rng.IntN(5) == 0 {
			kind = base.KindDelete
		}
		seq := uint64(s) + 1
		if err := pm.m.add(seq, kind, key, []byte(fmt.Sprint(seq))); err != nil {
			t.Fatal(err)
		}
		pm.versions[string(key)] = append(pm.versions[string(key)], base.MakeTrailer(seq, kind))
	}
}

// overflowed counts the buckets whose overflow bit is set.
func (p *memPoints) overflowed() int {
	n := 0
	for i := range p.overflow {
		for b := p.overflow[i].Load(); b != 0; b &= b - 1 {
			n++
		}
	}
	return n
}

func pointsKey(i int) []byte { return []byte(fmt.Sprintf("key%07d", i)) }

// check compares the memtable's Get, through the index, with the skip
// list's own search for every key up to keys (some never added) at
// snapshots around every version.
func (pm *pointsModel) check(t *testing.T, keys int) {
	t.Helper()
	for i := range keys {
		key := pointsKey(i)
		snaps := []uint64{0, base.MaxSeq}
		for _, v := range pm.versions[string(key)] {
			snaps = append(snaps, v.Seq()-1, v.Seq(), v.Seq()+1)
		}
		for _, s := range snaps {
			gv, gk, gok := pm.m.get(key, s)
			wv, wk, wok := pm.m.rep.Get(key, s)
			if gok != wok || gk != wk || string(gv) != string(wv) {
				t.Fatalf("key %q at snapshot %d: index gives (%q, %v, %v), the list (%q, %v, %v)", key, s, gv, gk, gok, wv, wk, wok)
			}
		}
	}
}

// TestMemPointsMatchesTheList: random versions of a few thousand keys, in
// random sequence order, then every key at every snapshot around its
// versions, through the index and through a search of the list. The
// table sized for an 8 MiB memtable holds every key; one of 40 buckets
// (640 slots for 2,700 keys) overflows, so lookups of keys that found no
// slot search the list.
func TestMemPointsMatchesTheList(t *testing.T) {
	const limit, keys, adds = 8 << 20, 3000, 9000
	for _, buckets := range []uint64{0, 40} {
		t.Run(fmt.Sprint(buckets), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, buckets))
			rep := skiplist.NewSized(limit)
			p := newMemPoints(limit, rep)
			if buckets != 0 {
				p = newMemPointsOf(buckets, p.refBits)
			}
			pm := newPointsModelOf(rep, limit, p)
			pm.addRandom(t, rng, keys, adds)
			pm.check(t, keys)
			switch n := p.overflowed(); {
			case buckets != 0 && n == 0:
				t.Fatal("the small table never overflowed: the test misses that path")
			case buckets == 0 && n != 0:
				t.Fatalf("%d buckets overflowed in a table of %d", n, p.buckets)
			case p.state.Load()&pointsOff != 0:
				t.Fatal("the index turned off")
			}
		})
	}
}

// TestMemPointsTurnsOff: a table whose slots keep too few bits for the
// references of a memtable that outgrew its size turns off at the first
// that does not fit, and every lookup from then on searches the list,
// which keeps reads right after newer versions of indexed keys.
func TestMemPointsTurnsOff(t *testing.T) {
	const limit = 64 << 10
	rep := skiplist.NewSized(limit)
	p := newMemPoints(limit, rep)
	pm := newPointsModelOf(rep, limit, p)
	pm.addRandom(t, rand.New(rand.NewPCG(2, 2)), 3000, 9000)
	if p.state.Load()&pointsOff == 0 {
		t.Fatalf("9,000 entries in a memtable of %d bytes, refs of %d bits, and the index still on", limit, p.refBits)
	}
	pm.check(t, 3000)
}

// TestMemPointsKeepsTheNewest: goroutines add versions of the same keys
// at once, each its own sequences, in an order unrelated to them; after
// they finish, each key's slot names its largest trailer and every
// snapshot reads what the list reads.
func TestMemPointsKeepsTheNewest(t *testing.T) {
	pm := newPointsModel(1 << 20)
	const writers, keys, rounds = 4, 200, 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				for i := range keys {
					// Later rounds take smaller sequences for odd keys.
					round := r
					if i%2 == 1 {
						round = rounds - 1 - r
					}
					seq := uint64((round*keys+i)*writers+w) + 1
					if err := pm.m.add(seq, base.KindSet, pointsKey(i), []byte(fmt.Sprint(seq))); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	for i := range keys {
		key := pointsKey(i)
		ref, answer := pm.m.points.Load().find(pm.m.pointRep, key)
		if answer != pointsFound {
			t.Fatalf("key %q: answer %d, want found", key, answer)
		}
		_, tr := pm.m.pointRep.EntryAt(ref)
		want := uint64(((rounds-1)*keys+i)*writers+writers-1) + 1
		if tr.Seq() != want {
			t.Fatalf("key %q: slot names sequence %d, want the largest, %d", key, tr.Seq(), want)
		}
		for r := range rounds * writers {
			pm.versions[string(key)] = append(pm.versions[string(key)], base.MakeTrailer(uint64((r/writers*keys+i)*writers+r%writers)+1, base.KindSet))
		}
	}
	pm.check(t, keys+1)
}

// TestMemPointsReadersBesideWriters runs lookups while writers add, for the
// race detector: a reader's answer for a key it added itself is that key.
func TestMemPointsReadersBesideWriters(t *testing.T) {
	pm := newPointsModel(1 << 20)
	var seq sync.Mutex
	next := uint64(0)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				key := make([]byte, 8)
				binary.BigEndian.PutUint64(key, uint64(i*4+w))
				seq.Lock()
				next++
				s := next
				seq.Unlock()
				if err := pm.m.add(s, base.KindSet, key, key); err != nil {
					t.Error(err)
					return
				}
				v, _, ok := pm.m.get(key, base.MaxSeq)
				if !ok || string(v) != string(key) {
					t.Errorf("key %x read back as (%x, %v)", key, v, ok)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestMemPointsRelease: a memtable's index goes with its last reference,
// and releasing twice is harmless.
func TestMemPointsRelease(t *testing.T) {
	pm := newPointsModel(64 << 20)
	if err := pm.m.add(1, base.KindSet, []byte("a"), nil); err != nil {
		t.Fatal(err)
	}
	pm.m.unref()
	if !pm.m.points.Load().released.Load() {
		t.Fatal("the index outlived the memtable's last reference")
	}
	pm.m.points.Load().release()
}

// TestMemPointsAfterGets: a memtable gets a point index when the DB served
// a Get since the memtable before it was made, and only then, so a run of
// writes alone pays for none; reads through it see every write.
func TestMemPointsAfterGets(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	// flush writes key so that the memtable is not empty, and switches it.
	flush := func(key string) *memTable {
		put(t, db, key, "x")
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		db.mu.Lock()
		defer db.mu.Unlock()
		return db.def.mem
	}
	if m := flush("a"); m.points.Load() != nil {
		t.Fatal("a memtable made after writes alone has a point index")
	}
	if got, _ := getString(t, db, "a"); got != "x" {
		t.Fatalf("a = %q", got)
	}
	m := flush("b")
	if m.points.Load() == nil {
		t.Fatal("a memtable made after a Get has no point index")
	}
	put(t, db, "a", "2")
	put(t, db, "c", "3")
	for k, want := range map[string]string{"a": "2", "b": "x", "c": "3"} {
		if got, _ := getString(t, db, k); got != want {
			t.Fatalf("%s = %q, want %q", k, got, want)
		}
	}
	if _, answer := m.points.Load().find(m.pointRep, []byte("c")); answer != pointsFound {
		t.Fatalf("c not in the index: answer %d", answer)
	}
	if flush("d").points.Load() == nil {
		t.Fatal("Gets went on and the next memtable has no point index")
	}
	if flush("e").points.Load() != nil {
		t.Fatal("no Get since the last memtable was made, and the next has a point index")
	}
}

// TestMemPointsBuiltBesideWriters: a memtable filled without an index gets
// one built, on a goroutine of its own, while writers go on adding
// versions of the same keys; once
// built, every key at every snapshot reads through the index what a
// search of the list reads, and the index is used (ready, not off).
func TestMemPointsBuiltBesideWriters(t *testing.T) {
	const limit, keys = 8 << 20, 2000
	rep := skiplist.NewSized(limit)
	pm := newPointsModelOf(rep, limit, nil)
	var mu sync.Mutex // guards pm.versions and seq
	seq := uint64(0)
	add := func(rng *rand.Rand) {
		mu.Lock()
		seq++
		s := seq
		key := pointsKey(rng.IntN(keys - keys/10))
		pm.versions[string(key)] = append(pm.versions[string(key)], base.MakeTrailer(s, base.KindSet))
		mu.Unlock()
		if err := pm.m.add(s, base.KindSet, key, []byte(fmt.Sprint(s))); err != nil {
			t.Error(err)
		}
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for range pointsBuildInline + 1000 { // built on a goroutine
		add(rng)
	}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(5, uint64(w)))
			for range 3000 {
				add(rng)
			}
		}()
	}
	pm.m.wantPoints()
	pm.m.wantPoints() // a second ask builds nothing more
	wg.Wait()
	p := waitPointsReady(t, pm.m)
	if p.state.Load() != pointsReady {
		t.Fatalf("index state %#x, want ready only", p.state.Load())
	}
	pm.check(t, keys)
	for key := range pm.versions {
		if _, answer := p.find(pm.m.pointRep, []byte(key)); answer != pointsFound {
			t.Fatalf("%q: answer %d, want found", key, answer)
		}
	}
	pm.m.unref()
}

// waitPointsReady waits for m's index to be built.
func waitPointsReady(t *testing.T, m *memTable) *memPoints {
	t.Helper()
	for range 10000 {
		if p := m.points.Load(); p != nil && p.state.Load()&pointsReady != 0 {
			return p
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the point index was not built within 10 s")
	return nil
}

// TestMemPointsBuiltOnFirstGet: the memtable of a DB written without
// reads gets its index when a Get first searches it (built by that Get, at
// 300 entries), and reads through the
// index see every write, older and newer.
func TestMemPointsBuiltOnFirstGet(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	for i := range 500 {
		put(t, db, string(pointsKey(i%300)), fmt.Sprint(i))
	}
	db.mu.Lock()
	m := db.def.mem
	db.mu.Unlock()
	if m.points.Load() != nil {
		t.Fatal("an index before any Get")
	}
	if got, _ := getString(t, db, string(pointsKey(0))); got != "300" {
		t.Fatalf("key 0 = %q", got)
	}
	waitPointsReady(t, m)
	put(t, db, string(pointsKey(1)), "new")
	for i := range 300 {
		want := fmt.Sprint(i + 300)
		if i >= 200 {
			want = fmt.Sprint(i)
		}
		if i == 1 {
			want = "new"
		}
		if got, ok := getString(t, db, string(pointsKey(i))); !ok || got != want {
			t.Fatalf("key %d = %q %v, want %q", i, got, ok, want)
		}
	}
	if _, ok := getString(t, db, string(pointsKey(300))); ok {
		t.Fatal("a key never written found")
	}
}
