package dbbench

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/tracefmt"
)

// evenKeysDB finds the keys whose last byte is even, with the key as the
// value, and counts its calls; it has no batched lookup.
type evenKeysDB struct {
	engine.DB // nil: only Get is called
	gets      int
}

func (d *evenKeysDB) Get(key []byte, fn func(value []byte)) (bool, error) {
	d.gets++
	if key[len(key)-1]%2 != 0 {
		return false, nil
	}
	fn(key)
	return true, nil
}

// batchedEvenKeysDB is evenKeysDB with a batched lookup of its own.
type batchedEvenKeysDB struct {
	evenKeysDB
	multiGets int
}

func (d *batchedEvenKeysDB) MultiGet(keys [][]byte, found []bool, fn func(i int, value []byte)) error {
	d.multiGets++
	for i, k := range keys {
		found[i] = k[len(k)-1]%2 == 0
		if found[i] {
			fn(i, k)
		}
	}
	return nil
}

// TestTracedMultiGet: the tracing wrapper's MultiGet records the batch as
// one MultiGet record of its keys, finds what the engine finds, uses the
// engine's own MultiGet where it has one (a Get per key otherwise, none
// of them recorded) and allocates nothing per batch.
func TestTracedMultiGet(t *testing.T) {
	keys := [][]byte{[]byte("k1"), []byte("k2"), []byte("k4"), []byte("k7")}
	want := []bool{false, true, true, false}
	plain := &evenKeysDB{}
	batched := &batchedEvenKeysDB{}
	for _, inner := range []engine.DB{plain, batched} {
		path := filepath.Join(t.TempDir(), "trace")
		rec, err := startTrace(path)
		if err != nil {
			t.Fatal(err)
		}
		db := &tracedDB{DB: inner, rec: rec}
		found := make([]bool, len(keys))
		var got [][]byte
		err = engine.NewRuns(db).MultiGet(keys, found, func(i int, v []byte) {
			got = append(got, append([]byte(nil), v...))
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if found[i] != want[i] {
				t.Fatalf("%T: found %v, want %v", inner, found, want)
			}
		}
		if len(got) != 2 || !bytes.Equal(got[0], keys[1]) || !bytes.Equal(got[1], keys[2]) {
			t.Fatalf("%T: values %q, want %q and %q", inner, got, keys[1], keys[2])
		}
		ignore := func(int, []byte) {}
		if !raceEnabled {
			if n := testing.AllocsPerRun(100, func() { db.MultiGet(keys, found, ignore) }); n != 0 {
				t.Errorf("%T: %v allocations per traced MultiGet, want 0", inner, n)
			}
		}
		if err := rec.end(); err != nil {
			t.Fatal(err)
		}
		checkMultiGetTrace(t, path, keys)
	}
	if plain.gets == 0 {
		t.Errorf("no Gets on the engine without a MultiGet")
	}
	if batched.multiGets == 0 || batched.gets != 0 {
		t.Errorf("engine with a MultiGet: %d MultiGets and %d Gets, want its MultiGet only", batched.multiGets, batched.gets)
	}
}

// checkMultiGetTrace checks that every record of the trace at path is a
// MultiGet of keys in the default column family.
func checkMultiGetTrace(t *testing.T, path string, keys [][]byte) {
	t.Helper()
	records := 0
	EachTraceRecord(t, path, func(version int, rec tracefmt.Record) {
		if rec.Type != tracefmt.TypeMultiGet {
			t.Fatalf("record of type %v in the trace, want MultiGets only", rec.Type)
		}
		var traced [][]byte
		if _, err := tracefmt.DecodeMultiGet(version, rec.Payload, func(cf uint32, key []byte) {
			if cf != 0 {
				t.Errorf("key %q traced in column family %d, want 0", key, cf)
			}
			traced = append(traced, append([]byte(nil), key...))
		}); err != nil {
			t.Fatal(err)
		}
		if len(traced) != len(keys) {
			t.Fatalf("MultiGet record of %q, want %q", traced, keys)
		}
		for i := range keys {
			if !bytes.Equal(traced[i], keys[i]) {
				t.Fatalf("MultiGet record of %q, want %q", traced, keys)
			}
		}
		records++
	})
	if records == 0 {
		t.Fatal("no records in the trace")
	}
}
