package lsm

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/godbbench/godbbench/internal/base"
)

// TestMergingIterDataDriven runs testdata/merging_iter. Commands:
//
//	define
//	  one child a line: entries "key.SET.seq:value", "key.DEL.seq", or
//	  "key.ERR.seq" (a position where the child fails); a value "!" makes
//	  Value fail; "empty" is a child without entries. A child's entries are
//	  sorted into internal order.
//	iter
//	  operations on a merging iterator over the children, one a line:
//	  first, last, next, prev, seek-ge K, seek-lt K, value, close; each
//	  prints the position ("key#seq,KIND"), "." when exhausted, or the error
//	iter-db [seq=N] [lower=K] [upper=K] [keys-only]
//	  the same operations (and seek-le K) on a DB iterator over the merge,
//	  reading as of sequence seq (default: all); positions print "key=value"
//	  (the value only without keys-only)
func TestMergingIterDataDriven(t *testing.T) {
	var children []*scriptedIter
	datadriven.RunTest(t, "testdata/merging_iter", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "define":
			children = children[:0]
			for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
				children = append(children, parseScriptedIter(t, len(children), line))
			}
			var b strings.Builder
			for _, c := range children {
				fmt.Fprintf(&b, "%s: %d entries\n", c.name, len(c.entries))
			}
			return b.String()
		case "iter":
			m := newMergingIter(internalIters(children))
			return runIterOps(t, d.Input, func(op, arg string) string {
				return mergingIterOp(m, op, arg)
			})
		case "iter-db":
			it := &dbIter{m: newMergingIter(internalIters(children)), seq: base.MaxSeq - 1}
			for _, arg := range d.CmdArgs {
				switch arg.Key {
				case "seq":
					it.seq = parseUint(t, arg.SingleVal(t))
				case "lower":
					it.lower = []byte(arg.SingleVal(t))
				case "upper":
					it.upper = []byte(arg.SingleVal(t))
				case "keys-only":
					it.keysOnly = true
				default:
					t.Fatalf("iter-db: unknown argument %q", arg.Key)
				}
			}
			return runIterOps(t, d.Input, func(op, arg string) string {
				return dbIterOp(it, op, arg)
			})
		default:
			return fmt.Sprintf("unknown command %q\n", d.Cmd)
		}
	})
}

// runIterOps runs each line of input through do, printing "op: result".
func runIterOps(t *testing.T, input string, do func(op, arg string) string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(input), "\n") {
		op, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		fmt.Fprintf(&b, "%s: %s\n", strings.TrimSpace(line), do(op, arg))
	}
	return b.String()
}

// positioner is what the merging and the DB iterators have in common.
type positioner interface {
	First() bool
	Last() bool
	Next() bool
	Prev() bool
	SeekGE(key []byte) bool
	SeekLT(key []byte) bool
	Valid() bool
	Error() error
}

// position runs a positioning operation; known is false for any other.
// When the iterator is not at an entry, state says why ("." or the
// error); it also reports a result that disagrees with Valid.
func position(it positioner, op, arg string) (state string, known bool) {
	var ok bool
	switch op {
	case "first":
		ok = it.First()
	case "last":
		ok = it.Last()
	case "next":
		ok = it.Next()
	case "prev":
		ok = it.Prev()
	case "seek-ge":
		ok = it.SeekGE([]byte(arg))
	case "seek-lt":
		ok = it.SeekLT([]byte(arg))
	default:
		return "", false
	}
	switch err := it.Error(); {
	case ok != it.Valid():
		return fmt.Sprintf("returned %t but Valid is %t", ok, it.Valid()), true
	case ok && err != nil:
		return fmt.Sprintf("valid with error %v", err), true
	case !ok && err != nil:
		return fmt.Sprintf("error: %v", err), true
	case !ok:
		return ".", true
	}
	return "", true
}

func mergingIterOp(m *mergingIter, op, arg string) string {
	if state, known := position(m, op, arg); known {
		if state != "" {
			return state
		}
		return fmt.Sprintf("%s#%d,%s", m.Key(), m.Seq(), kindName(m.Kind()))
	}
	switch op {
	case "value":
		if !m.Valid() {
			return "not valid"
		}
		v, err := m.Value()
		if err != nil {
			return fmt.Sprintf("error: %v (valid=%t)", err, m.Valid())
		}
		return string(v)
	case "close":
		return fmt.Sprintf("err=%v", m.Close())
	}
	return fmt.Sprintf("unknown operation %q", op)
}

func dbIterOp(it *dbIter, op, arg string) string {
	state, known := position(it, op, arg)
	switch {
	case !known && op == "seek-le":
		state, _ = position(seekLEPositioner{it}, "seek-ge", arg)
	case !known && op == "close":
		return fmt.Sprintf("err=%v", it.Close())
	case !known:
		return fmt.Sprintf("unknown operation %q", op)
	}
	if state != "" {
		return state
	}
	if it.keysOnly {
		return string(it.Key())
	}
	key := string(it.Key())
	v, err := it.Value()
	if err != nil {
		return fmt.Sprintf("%s, value error: %v (valid=%t)", key, err, it.Valid())
	}
	return key + "=" + string(v)
}

// seekLEPositioner runs the DB iterator's SeekLE as its SeekGE.
type seekLEPositioner struct{ *dbIter }

func (p seekLEPositioner) SeekGE(key []byte) bool { return p.SeekLE(key) }

func kindName(k base.Kind) string {
	switch k {
	case base.KindSet:
		return "SET"
	case base.KindDelete:
		return "DEL"
	}
	return fmt.Sprintf("kind%d", k)
}

// scriptedEntry is one entry of a scriptedIter.
type scriptedEntry struct {
	key        string
	seq        uint64
	kind       base.Kind
	value      string
	fails      bool // positioning here fails
	valueFails bool // Value fails here
}

// scriptedIter is an internalIter over a fixed list of entries in internal
// order that fails where its script says.
type scriptedIter struct {
	name    string
	entries []scriptedEntry
	pos     int
	err     error
}

func parseScriptedIter(t *testing.T, index int, line string) *scriptedIter {
	s := &scriptedIter{name: fmt.Sprintf("child %d", index)}
	for _, field := range strings.Fields(line) {
		if field == "empty" {
			continue
		}
		spec, value, hasValue := strings.Cut(field, ":")
		parts := strings.Split(spec, ".")
		if len(parts) != 3 {
			t.Fatalf("entry %q is not key.KIND.seq", field)
		}
		seq, err := strconv.ParseUint(parts[2], 10, 64)
		if err != nil {
			t.Fatalf("entry %q: %v", field, err)
		}
		e := scriptedEntry{key: parts[0], seq: seq, value: value}
		switch parts[1] {
		case "SET":
			e.kind, e.valueFails = base.KindSet, hasValue && value == "!"
		case "DEL":
			e.kind = base.KindDelete
		case "ERR":
			e.fails = true
		default:
			t.Fatalf("entry %q: unknown kind %q", field, parts[1])
		}
		s.entries = append(s.entries, e)
	}
	sort.SliceStable(s.entries, func(i, j int) bool {
		a, b := &s.entries[i], &s.entries[j]
		if a.key != b.key {
			return a.key < b.key
		}
		return a.seq > b.seq
	})
	return s
}

func internalIters(children []*scriptedIter) []internalIter {
	out := make([]internalIter, len(children))
	for i, c := range children {
		out[i] = c
	}
	return out
}

// land reports whether pos is an entry, failing if the script says so.
func (s *scriptedIter) land() bool {
	if s.pos < 0 || s.pos >= len(s.entries) {
		return false
	}
	if e := &s.entries[s.pos]; e.fails {
		s.err = fmt.Errorf("%s: injected error at %s#%d", s.name, e.key, e.seq)
		s.pos = -1
		return false
	}
	return true
}

// seek positions at pos after clearing the error, as a fresh positioning
// of a real iterator does.
func (s *scriptedIter) seek(pos int) bool {
	s.err, s.pos = nil, pos
	return s.land()
}

func (s *scriptedIter) First() bool { return s.seek(0) }
func (s *scriptedIter) Last() bool  { return s.seek(len(s.entries) - 1) }
func (s *scriptedIter) SeekGE(key []byte) bool {
	return s.seek(sort.Search(len(s.entries), func(i int) bool { return s.entries[i].key >= string(key) }))
}
func (s *scriptedIter) SeekLT(key []byte) bool {
	return s.seek(sort.Search(len(s.entries), func(i int) bool { return s.entries[i].key >= string(key) }) - 1)
}

func (s *scriptedIter) step(delta int) bool {
	if s.err != nil || s.pos < 0 || s.pos >= len(s.entries) {
		return false
	}
	s.pos += delta
	return s.land()
}

func (s *scriptedIter) Next() bool      { return s.step(1) }
func (s *scriptedIter) Prev() bool      { return s.step(-1) }
func (s *scriptedIter) Key() []byte     { return []byte(s.entries[s.pos].key) }
func (s *scriptedIter) Seq() uint64     { return s.entries[s.pos].seq }
func (s *scriptedIter) Kind() base.Kind { return s.entries[s.pos].kind }
func (s *scriptedIter) Error() error    { return s.err }
func (s *scriptedIter) Close() error    { return nil }

func (s *scriptedIter) Value() ([]byte, error) {
	e := &s.entries[s.pos]
	if e.valueFails {
		return nil, errors.New(s.name + ": injected value error at " + e.key)
	}
	return []byte(e.value), nil
}
