package reliability

import (
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// openFilled opens a native database holding the first n batches.
func openFilled(t *testing.T, wl Workload, n int) engine.DB {
	t.Helper()
	op, err := engine.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	db, err := op.Open(t.TempDir(), Config{}.options(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := applyBatches(db, wl, 0, n, Config{}, nil); err != nil {
		t.Fatal(err)
	}
	return db
}

// lastPut returns a key that is live after w writes, and the write that
// put its value.
func lastPut(wl Workload, w int) (key, writer int) {
	for k, pw := range wl.StateAt(w) {
		return k, pw
	}
	panic("empty state")
}

func TestVerifyAcceptsTheModel(t *testing.T) {
	wl := DefaultWorkload(1)
	db := openFilled(t, wl, 100)
	hi := 100 * wl.Batch
	if v := Verify(db, wl, hi, hi); v.Wrong != 0 || v.ReadErr != "" || v.Prefix != hi {
		t.Fatalf("verdict %+v, want prefix %d and nothing wrong", v, hi)
	}
	// Fewer batches than the window's end: an older state, still exact.
	if v := Verify(db, wl, 0, hi+8*wl.Batch); v.Wrong != 0 || v.Prefix != hi {
		t.Fatalf("verdict %+v, want prefix %d", v, hi)
	}
}

// Each way of being wrong is caught: a stale value, a value never
// written, a deleted key that is back, a live key gone, half a batch.
func TestVerifyCatchesWrongData(t *testing.T) {
	wl := DefaultWorkload(2)
	hi := 100 * wl.Batch
	live, w := lastPut(wl, hi)
	older := -1
	for x := 0; x < w; x++ {
		if k, del := wl.Op(x); k == live && !del {
			older = x
		}
	}
	deleted := -1
	for x := hi - 1; x >= 0 && deleted < 0; x-- {
		if k, del := wl.Op(x); del {
			if _, ok := wl.StateAt(hi)[k]; !ok {
				deleted = k
			}
		}
	}
	cases := []struct {
		name   string
		damage func(db engine.DB) error
		want   string
	}{
		{"invented value", func(db engine.DB) error { return db.Put(wl.Key(live), []byte("not a value"), nil) }, "no write put"},
		{"deleted key back", func(db engine.DB) error { return db.Put(wl.Key(deleted), wl.Value(0), nil) }, "no write put"},
		{"live key gone", func(db engine.DB) error { return db.Delete(wl.Key(live), nil) }, "write -1"},
		{"half a batch", func(db engine.DB) error {
			b := db.NewBatch()
			defer b.Close()
			k, del := wl.Op(hi)
			if del {
				b.Delete(wl.Key(k))
			} else {
				b.Put(wl.Key(k), wl.Value(hi))
			}
			return db.Apply(b, nil)
		}, ""},
	}
	if older >= 0 {
		cases = append(cases, struct {
			name   string
			damage func(db engine.DB) error
			want   string
		}{"stale value", func(db engine.DB) error { return db.Put(wl.Key(live), wl.Value(older), nil) }, "not one the window allows"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := openFilled(t, wl, 100)
			if err := c.damage(db); err != nil {
				t.Fatal(err)
			}
			lo, top := hi, hi
			if c.name == "half a batch" {
				lo, top = 0, hi+wl.Batch
			}
			v := Verify(db, wl, lo, top)
			if v.Wrong == 0 || !strings.Contains(strings.Join(v.Samples, "\n"), c.want) {
				t.Fatalf("verdict %+v: want wrong data mentioning %q", v, c.want)
			}
		})
	}
}

func TestMatchPrefix(t *testing.T) {
	wl := DefaultWorkload(3)
	s := wl.StateAt(40)
	if p := wl.MatchPrefix(s, 0, 80); p != 40 {
		t.Fatalf("prefix %d, want 40", p)
	}
	if p := wl.MatchPrefix(s, 44, 80); p != -1 {
		t.Fatalf("prefix %d, want none: the state is before the window", p)
	}
	if p := wl.MatchPrefix(wl.StateAt(41), 0, 80); p != -1 {
		t.Fatalf("prefix %d, want none: 41 writes is not whole batches", p)
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		v       Verdict
		vexit   string
		olderOK bool
		want    Outcome
	}{
		{Verdict{Prefix: 100}, "", false, Correct},
		{Verdict{Prefix: 96}, "", true, Older},
		{Verdict{Prefix: 96}, "", false, Wrong},
		{Verdict{Prefix: -1, OpenErr: "Corruption"}, "", false, Refused},
		{Verdict{Prefix: -1, ReadErr: "checksum"}, "", false, ReadError},
		{Verdict{Prefix: -1, ReadErr: "checksum", Wrong: 1}, "", false, Wrong},
		{Verdict{}, "crash: signal bus error", false, Crash},
		{Verdict{}, "hang (killed after 60 s)", false, Hang},
	}
	for _, c := range cases {
		if got := classify(c.v, c.vexit, 100, c.olderOK); got != c.want {
			t.Errorf("classify(%+v, %q, olderOK %v) = %s, want %s", c.v, c.vexit, c.olderOK, got, c.want)
		}
	}
}

func TestWorkloadValuesNameTheirWrite(t *testing.T) {
	wl := DefaultWorkload(4)
	for w := 0; w < 1000; w++ {
		k, del := wl.Op(w)
		if del {
			continue
		}
		if got := wl.Writer(k, wl.Value(w)); got != w {
			t.Fatalf("Writer(%d, Value(%d)) = %d", k, w, got)
		}
		if got := wl.Writer(k+1, wl.Value(w)); got != -1 {
			t.Fatalf("value of write %d accepted for another key", w)
		}
	}
}
