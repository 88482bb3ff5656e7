package engine_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// readerDB is a DB with a RunReader; its own Get must not be called.
type readerDB struct {
	engine.DB
	t      *testing.T
	reader *countingReader
}

func (d *readerDB) Get([]byte, func([]byte)) (bool, error) {
	d.t.Error("DB.Get called although the DB has a RunReader")
	return false, nil
}

func (d *readerDB) NewRunReader() engine.RunReader { return d.reader }

// countingReader finds a key whose first byte is not '-', with a value of
// that many bytes, fails on key "x", and counts its Gets and Ends; a Get
// after End without a new run's first Get is allowed (a run may reuse it).
type countingReader struct {
	gets, ends int
	open       bool // a Get since the last End
}

var errBoom = errors.New("boom")

func (c *countingReader) Get(key []byte, fn func([]byte)) (bool, error) {
	c.gets++
	c.open = true
	switch key[0] {
	case 'x':
		return false, errBoom
	case '-':
		return false, nil
	}
	fn(make([]byte, key[0]-'0'))
	return true, nil
}

func (c *countingReader) End() { c.ends++; c.open = false }

// TestRunsGetThroughRunReader: Runs' loop of single Gets reads through
// the engine's RunReader and ends it after every run, a failed one too.
func TestRunsGetThroughRunReader(t *testing.T) {
	c := &countingReader{}
	runs := engine.NewRuns(&readerDB{t: t, reader: c})
	sizes := make([]int32, 3)
	for _, timed := range []bool{false, true} {
		var doneNs []int64
		if timed {
			doneNs = make([]int64, 3)
		}
		c.gets, c.ends = 0, 0
		if err := runs.Get([]byte("3-5"), 1, sizes, nil, doneNs); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sizes, []int32{3, -1, 5}) || c.gets != 3 || c.ends != 1 || c.open {
			t.Fatalf("timed %v: sizes %v, %d Gets, %d Ends, open %v; want [3 -1 5], 3, 1, false", timed, sizes, c.gets, c.ends, c.open)
		}
	}
	c.gets, c.ends = 0, 0
	if err := runs.Get([]byte("2x4"), 1, sizes, nil, nil); !errors.Is(err, errBoom) {
		t.Fatalf("run with a failing Get: %v", err)
	}
	if c.gets != 2 || c.ends != 1 || c.open {
		t.Fatalf("failed run: %d Gets, %d Ends, open %v; want 2, 1, false", c.gets, c.ends, c.open)
	}
}
