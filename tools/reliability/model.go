package reliability

import "sort"

// State is the workload's database after a prefix of its writes: for each
// key index that holds a value, the write that put it. Absent keys are not
// in the map.
type State map[int]int

// StateAt returns the state after writes [0, p).
func (wl Workload) StateAt(p int) State {
	s := State{}
	for w := 0; w < p; w++ {
		wl.apply(s, w)
	}
	return s
}

func (wl Workload) apply(s State, w int) {
	if k, del := wl.Op(w); del {
		delete(s, k)
	} else {
		s[k] = w
	}
}

// MatchPrefix returns the largest p in [lo, hi] that is a whole number of
// batches and whose state equals obs, or -1 when there is none: a database
// that lost no acknowledged batch and applied none in part matches one.
// lo and hi must be multiples of Batch.
func (wl Workload) MatchPrefix(obs State, lo, hi int) int {
	s := wl.StateAt(lo)
	mismatch := 0
	for k, w := range s {
		if ow, ok := obs[k]; !ok || ow != w {
			mismatch++
		}
	}
	for k := range obs {
		if _, ok := s[k]; !ok {
			mismatch++
		}
	}
	best := -1
	if mismatch == 0 {
		best = lo
	}
	get := func(m State, k int) int {
		if w, ok := m[k]; ok {
			return w
		}
		return -1
	}
	for w := lo; w < hi; w++ {
		k, _ := wl.Op(w)
		before := get(s, k) == get(obs, k)
		wl.apply(s, w)
		after := get(s, k) == get(obs, k)
		switch {
		case before && !after:
			mismatch++
		case !before && after:
			mismatch--
		}
		if (w+1)%wl.Batch == 0 && mismatch == 0 {
			best = w + 1
		}
	}
	return best
}

// window is what a read may legitimately return when the database holds
// the state after some prefix p of the writes with lo <= p <= hi: for each
// key, its value at lo or one a write in [lo, hi) put on it.
type window struct {
	wl      Workload
	lo, hi  int
	base    State        // state at lo
	puts    map[int]bool // writes in [lo, hi) that put
	deleted map[int]bool // keys a write in [lo, hi) deletes
	touched []int        // every key index written in [0, hi), ascending
}

func newWindow(wl Workload, lo, hi int) *window {
	win := &window{wl: wl, lo: lo, hi: hi, base: wl.StateAt(lo), puts: map[int]bool{}, deleted: map[int]bool{}}
	seen := map[int]bool{}
	for w := 0; w < hi; w++ {
		k, del := wl.Op(w)
		if !seen[k] {
			seen[k] = true
			win.touched = append(win.touched, k)
		}
		if w < lo {
			continue
		}
		if del {
			win.deleted[k] = true
		} else {
			win.puts[w] = true
		}
	}
	sort.Ints(win.touched)
	return win
}

// acceptable reports whether key k may hold write w's value (w = -1:
// absent) in some state of the window.
func (win *window) acceptable(k, w int) bool {
	if b, ok := win.base[k]; ok && b == w {
		return true
	}
	if w < 0 {
		_, inBase := win.base[k]
		return !inBase || win.deleted[k]
	}
	return win.puts[w]
}

// mustExist reports whether key k holds a value in every state of the
// window, so that a read that skips it without an error is wrong.
func (win *window) mustExist(k int) bool {
	_, ok := win.base[k]
	return ok && !win.deleted[k]
}
