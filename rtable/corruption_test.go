package rtable

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/sst"
)

// readAll opens b as a table and reads every entry, value and a Get of
// every key; it returns the first error.
func readAll(t *testing.T, b []byte) error {
	r, err := openFile(t, b)
	if err != nil {
		return err
	}
	defer r.Close()
	return readEverything(r)
}

// readBytes decodes b in memory, as Open decodes a mapping, and reads
// everything.
func readBytes(b []byte) error {
	r := &Reader{data: b, name: "mem"}
	if err := r.init(true); err != nil {
		return err
	}
	return readEverything(r)
}

func readEverything(r *Reader) error {
	it := r.NewIter()
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		if _, err := it.Value(); err != nil {
			return err
		}
		if _, err := r.Get(it.Key(), base.MaxSeq, func([]byte, base.Kind, uint64) {}); err != nil {
			return err
		}
	}
	return it.Error()
}

// TestEveryFlippedByteDetected flips each byte of small tables of each
// layout in turn: every flip must give an error wrapping ErrCorruption
// (and sst.ErrCorruption), from Open or from a read; none may panic or
// read successfully.
func TestEveryFlippedByteDetected(t *testing.T) {
	tables := map[string][]byte{}
	for _, g := range goldenTables {
		tables[g.file] = g.bytes(t)
	}
	for _, s := range shapes {
		if s.name == "empty" {
			continue
		}
		es := sortEntries(s.gen(rand.New(rand.NewPCG(3, 4))))
		tables[s.name] = buildBytes(t, es[:min(len(es), 150)], WriterOptions{BloomBitsPerKey: 10})
		tables[s.name+"/snappy"] = buildBytes(t, es[:min(len(es), 100)], WriterOptions{ValueCompression: ValueSnappy})
		if s.name == "dbbench-values" {
			b := buildBytes(t, es[:150], WriterOptions{ValueCompression: ValueDict})
			if r := (&Reader{data: b, name: "mem"}); r.init(true) != nil || r.m.valueCodec != uint64(ValueDict) {
				t.Fatalf("%s: the dictionary table is not coded against a dictionary", s.name)
			}
			tables[s.name+"/dict"] = b
		}
	}
	for name, b := range tables {
		if err := readAll(t, b); err != nil {
			t.Fatalf("%s: intact table: %v", name, err)
		}
		c := make([]byte, len(b))
		for i := range b {
			for _, flip := range []byte{0x01, 0x80} {
				copy(c, b)
				c[i] ^= flip
				err := readBytes(c)
				if err == nil {
					t.Fatalf("%s: flipping bit %#x of byte %d of %d went unnoticed", name, flip, i, len(b))
				}
				if !errors.Is(err, ErrCorruption) || !errors.Is(err, sst.ErrCorruption) {
					t.Fatalf("%s: byte %d: error %v does not wrap ErrCorruption", name, i, err)
				}
			}
		}
	}
}

func TestOpenRejectsWrongSize(t *testing.T) {
	b := buildBytes(t, goldenTables[0].entries, WriterOptions{})
	path := filepath.Join(t.TempDir(), "s.rtable")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{int64(len(b)) - 1, int64(len(b)) + 1} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Open(f, size, ReaderOptions{}); !errors.Is(err, ErrCorruption) {
			t.Fatalf("Open with size %d: %v", size, err)
		}
	}
	for _, n := range []int{0, 5, footerLen} {
		err := readAll(t, b[len(b)-n:])
		if !errors.Is(err, ErrCorruption) {
			t.Fatalf("%d-byte file: %v", n, fmt.Sprint(err))
		}
	}
}
