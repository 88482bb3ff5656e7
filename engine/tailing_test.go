package engine_test

import (
	"errors"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// TestTailingIterOpenError: a view that fails to open leaves the
// tailing iterator invalid with the open's error until the next
// positioning call, which opens a new view.
func TestTailingIterOpenError(t *testing.T) {
	boom := errors.New("boom")
	fail := true
	opens := 0
	it := engine.NewTailingIter(func() (engine.Iterator, error) {
		opens++
		if fail {
			return nil, boom
		}
		return &oneKey{}, nil
	})
	if it.SeekGE([]byte("a")) || it.Valid() || !errors.Is(it.Error(), boom) || it.Next() {
		t.Fatalf("after a failed open: valid %v, error %v", it.Valid(), it.Error())
	}
	fail = false
	if !it.First() || string(it.Key()) != "k" || it.Error() != nil {
		t.Fatalf("after a good open: valid %v, error %v", it.Valid(), it.Error())
	}
	if !it.SeekGE([]byte("k")) || opens != 3 {
		t.Fatalf("SeekGE: valid %v after %d opens, want a new view per positioning call (3)", it.Valid(), opens)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
}

// oneKey is an iterator over the one key "k".
type oneKey struct{ valid bool }

func (o *oneKey) First() bool            { o.valid = true; return true }
func (o *oneKey) Last() bool             { o.valid = true; return true }
func (o *oneKey) SeekGE(k []byte) bool   { o.valid = string(k) <= "k"; return o.valid }
func (o *oneKey) SeekLE(k []byte) bool   { o.valid = string(k) >= "k"; return o.valid }
func (o *oneKey) Next() bool             { o.valid = false; return false }
func (o *oneKey) Prev() bool             { o.valid = false; return false }
func (o *oneKey) Valid() bool            { return o.valid }
func (o *oneKey) Key() []byte            { return []byte("k") }
func (o *oneKey) Value() ([]byte, error) { return []byte("v"), nil }
func (o *oneKey) Error() error           { return nil }
func (o *oneKey) Close() error           { return nil }
