package enginetest

import (
	"bytes"
	"sort"
)

// model is the reference every engine is checked against: a map from key to
// value plus, on demand, the keys in ascending bytewise order.
type model struct {
	kv     map[string]string
	sorted []string // nil when kv changed since the last sort
}

func newModel() *model {
	return &model{kv: map[string]string{}}
}

func (m *model) put(key, value []byte) {
	m.kv[string(key)] = string(value)
	m.sorted = nil
}

func (m *model) delete(key []byte) {
	delete(m.kv, string(key))
	m.sorted = nil
}

func (m *model) get(key []byte) (string, bool) {
	v, ok := m.kv[string(key)]
	return v, ok
}

// keys returns the live keys in ascending order.
func (m *model) keys() []string {
	if m.sorted == nil {
		m.sorted = make([]string, 0, len(m.kv))
		for k := range m.kv {
			m.sorted = append(m.sorted, k)
		}
		sort.Strings(m.sorted)
	}
	return m.sorted
}

// modelIter walks the model's keys restricted to [lower, upper) the way an
// engine.Iterator must: pos indexes the bounded key slice, and -1 or len
// mean the iterator is not valid.
type modelIter struct {
	keys []string // already restricted to the bounds
	pos  int
}

func newModelIter(m *model, lower, upper []byte) *modelIter {
	all := m.keys()
	lo, hi := 0, len(all)
	if lower != nil {
		lo = sort.SearchStrings(all, string(lower))
	}
	if upper != nil {
		hi = sort.SearchStrings(all, string(upper))
	}
	if hi < lo {
		hi = lo
	}
	return &modelIter{keys: all[lo:hi], pos: -1}
}

func (it *modelIter) valid() bool { return it.pos >= 0 && it.pos < len(it.keys) }

func (it *modelIter) key() string { return it.keys[it.pos] }

func (it *modelIter) first() bool { it.pos = 0; return it.valid() }

func (it *modelIter) last() bool { it.pos = len(it.keys) - 1; return it.valid() }

func (it *modelIter) seekGE(key []byte) bool {
	it.pos = sort.Search(len(it.keys), func(i int) bool { return it.keys[i] >= string(key) })
	return it.valid()
}

func (it *modelIter) seekLE(key []byte) bool {
	n := sort.Search(len(it.keys), func(i int) bool { return it.keys[i] > string(key) })
	it.pos = n - 1
	return it.valid()
}

func (it *modelIter) next() bool { it.pos++; return it.valid() }

func (it *modelIter) prev() bool { it.pos--; return it.valid() }

// describe formats a key for failure messages, showing bytes that are not
// printable.
func describe(key []byte) string {
	if key == nil {
		return "<nil>"
	}
	printable := true
	for _, c := range key {
		if c < 0x20 || c > 0x7e {
			printable = false
			break
		}
	}
	if printable {
		return string(key)
	}
	return "x" + hexString(key)
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	var out bytes.Buffer
	for _, c := range b {
		out.WriteByte(digits[c>>4])
		out.WriteByte(digits[c&15])
	}
	return out.String()
}
