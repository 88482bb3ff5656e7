package wal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"testing"
)

func encode(t testing.TB, recs [][]byte) []byte {
	var out bytes.Buffer
	w := NewWriter(&out)
	for _, r := range recs {
		w.AddRecord(r)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}

func readAll(data []byte) ([][]byte, error) {
	r := NewReader(data)
	var out [][]byte
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, append([]byte(nil), rec...))
	}
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var recs [][]byte
	for i := 0; i < 500; i++ {
		n := rng.Intn(100)
		if i%50 == 0 {
			n = rng.Intn(3 * BlockSize)
		}
		b := make([]byte, n)
		rng.Read(b)
		recs = append(recs, b)
	}
	data := encode(t, recs)
	got, err := readAll(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("got %d records, want %d", len(got), len(recs))
	}
	for i := range recs {
		if !bytes.Equal(got[i], recs[i]) {
			t.Fatalf("record %d differs", i)
		}
	}
}

func TestExampleBytes(t *testing.T) {
	data := encode(t, [][]byte{[]byte("hi")})
	if len(data) != 9 || !bytes.Equal(data[4:], []byte{2, 0, 1, 'h', 'i'}) {
		t.Fatalf("unexpected encoding % x", data)
	}
}

func TestTornTailIsEOF(t *testing.T) {
	recs := [][]byte{bytes.Repeat([]byte("a"), 100), bytes.Repeat([]byte("b"), 2*BlockSize)}
	data := encode(t, recs)
	for cut := 0; cut < len(data); cut += 97 {
		got, err := readAll(data[:cut])
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		for i := range got {
			if !bytes.Equal(got[i], recs[i]) {
				t.Fatalf("cut %d: record %d differs", cut, i)
			}
		}
	}
}

func TestFlippedByteIsCorruption(t *testing.T) {
	recs := [][]byte{bytes.Repeat([]byte("a"), 100), bytes.Repeat([]byte("b"), 300)}
	data := encode(t, recs)
	for i := 0; i < len(data); i++ {
		d := append([]byte(nil), data...)
		d[i] ^= 0x40
		got, err := readAll(d)
		if err == nil {
			// A flip may only shorten the log into a torn tail (a length byte).
			for j := range got {
				if !bytes.Equal(got[j], recs[j]) {
					t.Fatalf("flip at %d: wrong record %d accepted", i, j)
				}
			}
			continue
		}
		if !errors.Is(err, ErrCorruption) {
			t.Fatalf("flip at %d: error %v does not wrap ErrCorruption", i, err)
		}
	}
	d := append([]byte(nil), data...)
	d[20] ^= 1 // payload byte of the first record
	if _, err := readAll(d); !errors.Is(err, ErrCorruption) {
		t.Fatalf("payload flip: got %v", err)
	}
}

func FuzzReader(f *testing.F) {
	var out bytes.Buffer
	w := NewWriter(&out)
	for i := 0; i < 5; i++ {
		w.AddRecord([]byte(fmt.Sprint("record", i)))
	}
	w.AddRecord(bytes.Repeat([]byte("x"), BlockSize+10))
	_ = w.Flush()
	f.Add(out.Bytes())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(data)
		for i := 0; i < 1000; i++ {
			if _, err := r.Next(); err != nil {
				return
			}
		}
	})
}

func BenchmarkAddRecordFlush(b *testing.B) {
	w := NewWriter(io.Discard)
	rec := make([]byte, 116)
	b.ReportAllocs()
	b.SetBytes(int64(len(rec)))
	for i := 0; i < b.N; i++ {
		w.AddRecord(rec)
		_ = w.Flush()
	}
}

// TestTornMappedTailIsEOF: a log in a preallocated file whose last record
// a crash cut short while it was being copied in (its bytes from some point
// on still zero, zeros after it) ends before that record; the same damage
// at the very end of a file, with no zeros after it, is corruption.
func TestTornMappedTailIsEOF(t *testing.T) {
	recs := [][]byte{bytes.Repeat([]byte("a"), 100), bytes.Repeat([]byte("b"), 300)}
	data := encode(t, recs)
	lastStart := len(data) - (HeaderSize + 300)
	for cut := lastStart + 5; cut < len(data); cut += 13 {
		d := append(append([]byte(nil), data[:cut]...), make([]byte, len(data)-cut+4096)...)
		got, err := readAll(d)
		if err != nil || len(got) != 1 || !bytes.Equal(got[0], recs[0]) {
			t.Fatalf("cut %d with a zero tail: %d records, %v; want the first record only", cut, len(got), err)
		}
		// With its header whole, the damaged fragment reaches the file's end.
		if _, err := readAll(d[:len(data)]); cut >= lastStart+HeaderSize && !errors.Is(err, ErrCorruption) {
			t.Fatalf("cut %d ending the file: got %v, want corruption", cut, err)
		}
	}
}
