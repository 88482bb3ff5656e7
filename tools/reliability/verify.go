package reliability

import (
	"fmt"
	"sort"

	"github.com/godbbench/godbbench/engine"
)

// Verdict is what a verifier saw reading a database back: the first open
// and read errors, the wrong answers (a value no write in the window put
// there, a deleted or stale value, a live key skipped by a scan without an
// error, Gets and scans that disagree, a mix of states), and, when every
// read succeeded and agreed, the prefix of the workload the database holds.
type Verdict struct {
	OpenErr   string   `json:",omitempty"`
	ReadErr   string   `json:",omitempty"`
	Wrong     int      `json:",omitempty"`
	Samples   []string `json:",omitempty"` // the first few wrong answers
	Prefix    int      // MatchPrefix of what was read; -1 when reads failed or no prefix matches
	LiveKeys  int      // keys the Gets found
	ScanCount int      // entries the forward scan returned
}

func (v *Verdict) wrong(format string, args ...any) {
	v.Wrong++
	if len(v.Samples) < 5 {
		v.Samples = append(v.Samples, fmt.Sprintf(format, args...))
	}
}

func (v *Verdict) readErr(what string, err error) {
	if v.ReadErr == "" {
		v.ReadErr = what + ": " + err.Error()
	}
}

// Verify reads db back against the workload, expecting the state after
// some whole number of batches p with lo <= p <= hi: a Get of every key the
// writes [0, hi) touched, then a forward and a reverse scan.
func Verify(db engine.DB, wl Workload, lo, hi int) Verdict {
	win := newWindow(wl, lo, hi)
	v := Verdict{Prefix: -1}
	gets := State{}
	var got []byte
	fn := func(b []byte) { got = append(got[:0], b...) }
	for _, k := range win.touched {
		found, err := db.Get(wl.Key(k), fn)
		if err != nil {
			v.readErr(fmt.Sprintf("get key %d", k), err)
			continue
		}
		w := -1
		if found {
			if w = wl.Writer(k, got); w < 0 {
				v.wrong("get key %d: a value no write put there (%.20q)", k, got)
				continue
			}
			gets[k] = w
		}
		if !win.acceptable(k, w) {
			v.wrong("get key %d: write %d's value, not one the window allows", k, w)
		}
	}
	v.LiveKeys = len(gets)
	fwd, fok := scan(db, win, true, &v)
	rev, rok := scan(db, win, false, &v)
	v.ScanCount = len(fwd)
	if !fok || !rok || v.ReadErr != "" {
		return v
	}
	for _, s := range []State{fwd, rev} {
		if d, ok := diff(gets, s); !ok {
			v.wrong("gets and a scan disagree on key %d", d)
			break
		}
	}
	if v.Wrong > 0 {
		return v
	}
	if v.Prefix = wl.MatchPrefix(gets, lo, hi); v.Prefix < 0 {
		v.wrong("each value is plausible but together they are no state after whole batches in [%d, %d]", lo, hi)
	}
	return v
}

// diff returns a key on which a and b differ.
func diff(a, b State) (int, bool) {
	for k, w := range a {
		if bw, ok := b[k]; !ok || bw != w {
			return k, false
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			return k, false
		}
	}
	return 0, true
}

// scan walks the whole database in one direction, checking order, every
// value, and that no key that must exist is skipped before the scan ends
// or fails. ok is false when the scan reported an error.
func scan(db engine.DB, win *window, forward bool, v *Verdict) (State, bool) {
	dir := "forward"
	if !forward {
		dir = "reverse"
	}
	seen := State{}
	it, err := db.NewIter(&engine.IterOptions{})
	if err != nil {
		v.readErr(dir+" scan", err)
		return seen, false
	}
	// prev is the last key index returned; the keys strictly between prev
	// and the next one returned were skipped.
	prev := -1
	if !forward {
		prev = win.wl.Keys
	}
	skipped := func(from, to int) { // keys strictly between from and to
		if from > to {
			from, to = to, from
		}
		i := sort.SearchInts(win.touched, from+1)
		for ; i < len(win.touched) && win.touched[i] < to; i++ {
			if k := win.touched[i]; win.mustExist(k) {
				v.wrong("%s scan skipped live key %d without an error", dir, k)
			}
		}
	}
	ok := it.First()
	if !forward {
		ok = it.Last()
	}
	failed := false
	for ; ok; ok = step(it, forward) {
		k, good := win.wl.KeyIndex(it.Key())
		if !good {
			v.wrong("%s scan returned a key never written (%q)", dir, it.Key())
			continue
		}
		if (forward && k <= prev) || (!forward && k >= prev) {
			v.wrong("%s scan out of order: key %d after key %d", dir, k, prev)
			continue
		}
		skipped(prev, k)
		prev = k
		val, err := it.Value()
		if err != nil {
			v.readErr(dir+" scan value", err)
			failed = true
			break
		}
		w := win.wl.Writer(k, val)
		if w < 0 {
			v.wrong("%s scan key %d: a value no write put there", dir, k)
			continue
		}
		if !win.acceptable(k, w) {
			v.wrong("%s scan key %d: write %d's value, not one the window allows", dir, k, w)
		}
		seen[k] = w
	}
	if err := it.Error(); err != nil {
		v.readErr(dir+" scan", err)
		failed = true
	}
	if !failed {
		end := win.wl.Keys
		if !forward {
			end = -1
		}
		skipped(prev, end)
	}
	if err := it.Close(); err != nil {
		v.readErr(dir+" scan close", err)
		failed = true
	}
	return seen, !failed
}

func step(it engine.Iterator, forward bool) bool {
	if forward {
		return it.Next()
	}
	return it.Prev()
}
