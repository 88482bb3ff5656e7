package reliability

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Damage is one change to one file.
type Damage struct {
	Op     string // "flip", "truncate" or "delete"
	Offset int64  // flip: the byte; truncate: the new length
	Mask   byte   // flip: XORed into the byte (never 0)
}

func (d Damage) String() string {
	switch d.Op {
	case "flip":
		return fmt.Sprintf("flip byte %d ^0x%02x", d.Offset, d.Mask)
	case "truncate":
		return fmt.Sprintf("truncate to %d", d.Offset)
	}
	return d.Op
}

// apply damages path.
func (d Damage) apply(path string) error {
	switch d.Op {
	case "delete":
		return os.Remove(path)
	case "truncate":
		return os.Truncate(path, d.Offset)
	case "flip":
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		b := []byte{0}
		if _, err := f.ReadAt(b, d.Offset); err != nil {
			f.Close()
			return err
		}
		b[0] ^= d.Mask
		if _, err := f.WriteAt(b, d.Offset); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return fmt.Errorf("unknown damage %q", d.Op)
}

// Matrix describes a corruption-matrix run.
type Matrix struct {
	Engine string
	Config Config
	Seed   int64
	Flips  int    // byte flips per file kind
	Cuts   int    // truncations per file kind beyond the fixed ones (0, half, one byte short)
	Dir    string // an empty directory the run may fill
}

// Trial is one damaged copy of the database and what reading it gave.
type Trial struct {
	Kind, File  string
	Damage      Damage
	Outcome     Outcome
	DeletedLive []string // files of the copy that were live and are gone afterwards
	Detail      string   // the error or the first wrong answer
}

// MatrixResult is a corruption-matrix run.
type MatrixResult struct {
	Engine, Config string
	Files          map[string]int64 // the undamaged database's files
	Phases         [3]int           // writes compacted to the last level, flushed to level 0, left in the WAL
	Trials         []Trial
	Err            string // the run could not be made (build failed, control trial wrong)
}

// matrixPhases are the batch counts of the three phases of the database:
// compacted to the last level, flushed to level 0, left in the memtable
// and WAL.
var matrixPhases = []int{300, 150, 100}

// RunMatrix builds a database (in a subprocess), checks that an undamaged
// copy reads back correctly, then runs one trial per damage: every kind
// present gets a deletion, truncations to 0, half and one byte short plus
// m.Cuts random lengths, and m.Flips random byte flips, each to a file of
// that kind picked at random.
func RunMatrix(m Matrix) MatrixResult {
	cfg := m.Config
	cfg.AutoCompact = false // nothing may delete files behind the verifier's back
	res := MatrixResult{Engine: m.Engine, Config: cfg.Name()}
	wl := DefaultWorkload(uint64(m.Seed))
	// Every directory the matrix writes is one it made itself under m.Dir,
	// so removing it afterwards removes nothing of the caller's.
	tmpl, err := os.MkdirTemp(m.Dir, "template")
	if err != nil {
		res.Err = err.Error()
		return res
	}
	defer os.RemoveAll(tmpl)
	b, err := startChild(&childSpec{Role: roleBuild, Engine: m.Engine, Dir: tmpl, Config: cfg, Workload: wl, Phases: matrixPhases}, 120*time.Second)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	if e := b.wait(); e.code != 0 || len(e.lines) == 0 || e.lines[len(e.lines)-1] != "done" {
		res.Err = fmt.Sprintf("building the database: exit %d %s %s", e.code, strings.Join(e.lines, "; "), tail(e.stderr))
		return res
	}
	for i, n := range matrixPhases {
		res.Phases[i] = n * wl.Batch
	}
	lo := (matrixPhases[0] + matrixPhases[1]) * wl.Batch
	hi := lo + matrixPhases[2]*wl.Batch
	if res.Files, err = listFiles(tmpl); err != nil {
		res.Err = err.Error()
		return res
	}
	byKind := map[string][]string{}
	for _, name := range sortedNames(res.Files) {
		k := fileKind(name)
		byKind[k] = append(byKind[k], name)
	}
	run := func(kind, file string, d Damage) Trial {
		t := Trial{Kind: kind, File: file, Damage: d}
		trialDir, err := os.MkdirTemp(m.Dir, "trial")
		if err == nil {
			defer os.RemoveAll(trialDir)
			err = copyDir(trialDir, tmpl)
		}
		if err == nil && file != "" {
			err = d.apply(filepath.Join(trialDir, file))
		}
		var before map[string]int64
		if err == nil {
			before, err = listFiles(trialDir)
		}
		if err != nil {
			t.Outcome, t.Detail = Crash, "harness: "+err.Error()
			return t
		}
		v, opened, vexit := verifyChildOpened(m.Engine, trialDir, cfg, wl, lo, hi)
		t.Outcome = classify(v, vexit, hi, kind == KindWAL)
		switch {
		case vexit != "":
			t.Detail = vexit
		case v.Wrong > 0:
			t.Detail = v.Samples[0]
		case v.OpenErr != "":
			t.Detail = v.OpenErr
		case v.ReadErr != "":
			t.Detail = v.ReadErr
		case t.Outcome == Older || t.Outcome == Wrong:
			t.Detail = fmt.Sprintf("state after %d of %d writes", v.Prefix, hi)
		}
		after, _ := listFiles(trialDir)
		for _, name := range sortedNames(before) {
			if _, ok := after[name]; ok {
				continue
			}
			// A table is never obsolete here (no compaction runs). The other
			// files an open may replace (a WAL replayed into a table, a
			// MANIFEST rolled over) but only once it has opened: an open
			// that fails must leave every file where it was.
			k := fileKind(name)
			if k == KindTable || (!opened && k != KindLock && k != KindInfoLog) {
				t.DeletedLive = append(t.DeletedLive, name)
			}
		}
		return t
	}
	if ctl := run("", "", Damage{}); ctl.Outcome != Correct || len(ctl.DeletedLive) > 0 {
		res.Err = fmt.Sprintf("the undamaged copy reads back %s (%s), deleted %v", ctl.Outcome, ctl.Detail, ctl.DeletedLive)
		return res
	}
	rng := rand.New(rand.NewSource(m.Seed))
	for _, kind := range FileKinds {
		files := byKind[kind]
		if len(files) == 0 {
			continue
		}
		pick := func() string { return files[rng.Intn(len(files))] }
		res.Trials = append(res.Trials, run(kind, pick(), Damage{Op: "delete"}))
		for i := 0; i < 3+m.Cuts; i++ {
			f := pick()
			size := res.Files[f]
			if size == 0 {
				continue
			}
			n := []int64{0, size / 2, size - 1}
			if i < 3 {
				res.Trials = append(res.Trials, run(kind, f, Damage{Op: "truncate", Offset: n[i]}))
			} else {
				res.Trials = append(res.Trials, run(kind, f, Damage{Op: "truncate", Offset: rng.Int63n(size)}))
			}
		}
		for i := 0; i < m.Flips; i++ {
			f := pick()
			if size := res.Files[f]; size > 0 {
				res.Trials = append(res.Trials, run(kind, f, Damage{Op: "flip", Offset: rng.Int63n(size), Mask: byte(1 + rng.Intn(255))}))
			}
		}
	}
	return res
}

// Counts tallies a result's trials by file kind and outcome; the extra
// column "deleted live" counts trials that deleted a live file.
func (r MatrixResult) Counts() map[string]map[Outcome]int {
	c := map[string]map[Outcome]int{}
	for _, t := range r.Trials {
		if c[t.Kind] == nil {
			c[t.Kind] = map[Outcome]int{}
		}
		c[t.Kind][t.Outcome]++
		if len(t.DeletedLive) > 0 {
			c[t.Kind][DeletedLiveColumn]++
		}
	}
	return c
}

// DeletedLiveColumn is the Counts column of trials that deleted live files.
const DeletedLiveColumn Outcome = "deleted live files"

// Failed returns the trials that lost or invented data, crashed, hung, or
// deleted a live file.
func (r MatrixResult) Failed() []Trial {
	var out []Trial
	for _, t := range r.Trials {
		if t.Outcome.Bad() || len(t.DeletedLive) > 0 {
			out = append(out, t)
		}
	}
	return out
}
