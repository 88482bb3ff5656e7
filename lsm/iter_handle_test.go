package lsm

import (
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/godbbench/godbbench/internal/invariants"
)

// TestIteratorUseAfterClose: a closed Iterator reaches nothing, also when
// its pooled state now serves another iterator: positioning fails, Valid
// is false, Key nil, and Value, Error and a second Close say it is closed.
func TestIteratorUseAfterClose(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	put(t, db, "a", "1")
	put(t, db, "b", "2")
	old, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !old.First() || string(old.Key()) != "a" {
		t.Fatalf("first key %q", old.Key())
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	// The next iterator most likely reuses old's state.
	cur, err := db.NewIter(&IterOptions{LowerBound: []byte("b")})
	if err != nil {
		t.Fatal(err)
	}
	defer cur.Close()
	if !cur.First() || string(cur.Key()) != "b" {
		t.Fatalf("new iterator's first key %q", cur.Key())
	}
	if old.Valid() || old.Key() != nil {
		t.Errorf("closed iterator: Valid %t, Key %q", old.Valid(), old.Key())
	}
	for name, move := range map[string]func() bool{
		"First": old.First, "Last": old.Last, "Next": old.Next, "Prev": old.Prev,
		"SeekGE": func() bool { return old.SeekGE([]byte("a")) },
		"SeekLE": func() bool { return old.SeekLE([]byte("z")) },
		"SeekLT": func() bool { return old.SeekLT([]byte("z")) },
	} {
		if move() {
			t.Errorf("%s on a closed iterator succeeded", name)
		}
	}
	if _, err := old.Value(); !errors.Is(err, ErrIterClosed) {
		t.Errorf("Value after Close: %v", err)
	}
	if err := old.Error(); !errors.Is(err, ErrIterClosed) {
		t.Errorf("Error after Close: %v", err)
	}
	if _, _, more, err := old.ScanCount(10, false, false, nil); more || !errors.Is(err, ErrIterClosed) {
		t.Errorf("ScanCount after Close: more %t, %v", more, err)
	}
	if !invariants.Enabled { // there a second Close is a violation
		if err := old.Close(); !errors.Is(err, ErrIterClosed) {
			t.Errorf("second Close: %v", err)
		}
	}
	// The live iterator was not moved by any of that.
	if !cur.Valid() || string(cur.Key()) != "b" || cur.Next() {
		t.Errorf("live iterator disturbed: valid %t key %q", cur.Valid(), cur.Key())
	}
}

// TestIteratorReuseModel: iterators made and closed one after another
// (their state pooled and reused) and some kept open across others see
// exactly the model's keys for their snapshot and bounds, in both
// directions: nothing of an earlier iterator's bounds, snapshot or
// position survives into the next.
func TestIteratorReuseModel(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	rng := rand.New(rand.NewSource(1))
	model := map[string]string{}
	type snap struct {
		s     *Snapshot
		model map[string]string
	}
	var snaps []snap
	for round := range 4 {
		for range 60 {
			k := fmt.Sprintf("k%02d", rng.Intn(50))
			if rng.Intn(5) == 0 {
				del(t, db, k)
				delete(model, k)
				continue
			}
			v := fmt.Sprintf("v%d.%d", round, rng.Intn(1000))
			put(t, db, k, v)
			model[k] = v
		}
		if round%2 == 1 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		copied := make(map[string]string, len(model))
		for k, v := range model {
			copied[k] = v
		}
		snaps = append(snaps, snap{db.NewSnapshot(), copied})
	}
	defer func() {
		for _, s := range snaps {
			s.s.Release()
		}
	}()
	var open []*Iterator
	for i := range 400 {
		o := &IterOptions{}
		want := model
		if n := rng.Intn(len(snaps) + 1); n < len(snaps) {
			o.Snapshot, want = snaps[n].s, snaps[n].model
		}
		lo, hi := "", "\xff"
		if rng.Intn(2) == 0 {
			lo = fmt.Sprintf("k%02d", rng.Intn(50))
			o.LowerBound = []byte(lo)
		}
		if rng.Intn(2) == 0 {
			hi = fmt.Sprintf("k%02d", rng.Intn(50))
			o.UpperBound = []byte(hi)
		}
		var keys []string
		for k := range want {
			if k >= lo && k < hi {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		it, err := db.NewIter(o)
		if err != nil {
			t.Fatal(err)
		}
		reverse := rng.Intn(2) == 0
		var got []string
		ok := it.First()
		if reverse {
			ok = it.Last()
		}
		for ; ok; ok = step(it, reverse) {
			v, err := it.Value()
			if err != nil {
				t.Fatal(err)
			}
			if want[string(it.Key())] != string(v) {
				t.Fatalf("iterator %d: %s=%s, want %s", i, it.Key(), v, want[string(it.Key())])
			}
			got = append(got, string(it.Key()))
		}
		if err := it.Error(); err != nil {
			t.Fatal(err)
		}
		if reverse {
			for a, b := 0, len(got)-1; a < b; a, b = a+1, b-1 {
				got[a], got[b] = got[b], got[a]
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(keys) {
			t.Fatalf("iterator %d (reverse %t, bounds [%q, %q)): keys %v, want %v", i, reverse, lo, hi, got, keys)
		}
		if rng.Intn(4) == 0 {
			open = append(open, it) // closed later, after others reused state
			continue
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, it := range open {
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func step(it *Iterator, reverse bool) bool {
	if reverse {
		return it.Prev()
	}
	return it.Next()
}
