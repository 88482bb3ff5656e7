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
	checkReadsBack(t, encode(t, recs), recs)
}

// checkReadsBack fails t unless the log data reads as recs, to its end.
func checkReadsBack(t *testing.T, data []byte, recs [][]byte) {
	t.Helper()
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
		readsPrefix(t, data[:cut], recs)
	}
}

// readsPrefix fails t unless the log data, cut short, reads without an
// error as a prefix of recs; it returns the prefix's length.
func readsPrefix(t *testing.T, data []byte, recs [][]byte) int {
	t.Helper()
	got, err := readAll(data)
	if err != nil {
		t.Fatalf("cut %d: %v", len(data), err)
	}
	for i := range got {
		if !bytes.Equal(got[i], recs[i]) {
			t.Fatalf("cut %d: record %d differs", len(data), i)
		}
	}
	return len(got)
}

func TestFlippedByteIsCorruption(t *testing.T) {
	recs := [][]byte{bytes.Repeat([]byte("a"), 100), bytes.Repeat([]byte("b"), 300)}
	data := encode(t, recs)
	lastHeader := len(data) - (HeaderSize + 300)
	for i := 0; i < len(data); i++ {
		d := append([]byte(nil), data...)
		d[i] ^= 0x40
		got, err := readAll(d)
		if err == nil {
			// Only the last fragment's length may turn into a torn tail:
			// nothing that decodes follows it.
			if i != lastHeader+4 && i != lastHeader+5 {
				t.Fatalf("flip at %d: read %d records without an error", i, len(got))
			}
			if len(got) != 1 || !bytes.Equal(got[0], recs[0]) {
				t.Fatalf("flip at %d: wrong records accepted", i)
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

// TestLengthFlipBeforeRecordsIsCorruption: a length byte that grows a
// fragment past the end of the log, in the last block, with records after
// it, is corruption; a reader that called it a torn tail would drop those
// records.
func TestLengthFlipBeforeRecordsIsCorruption(t *testing.T) {
	var recs [][]byte
	for i := 0; i < 60; i++ {
		recs = append(recs, []byte(fmt.Sprintf("record-%03d", i)))
	}
	data := encode(t, recs)
	// Record 5's fragment: each record is one FULL fragment of 10 bytes.
	off := 5 * (HeaderSize + 10)
	d := append([]byte(nil), data...)
	d[off+5] = 0x7f // length 0x7f0a: past the end of this 1 KiB log
	r := NewReader(d)
	n := 0
	var err error
	for ; ; n++ {
		if _, err = r.Next(); err != nil {
			break
		}
	}
	if n != 5 || !errors.Is(err, ErrCorruption) || !r.DataAfterCorruption() || r.CorruptionOffset() != int64(off) {
		t.Fatalf("read %d records, then %v (data after: %v); want 5, then corruption with data after", n, err, r.DataAfterCorruption())
	}
	// Next resumes at the record after the damaged one.
	rec, err := r.Next()
	if err != nil || string(rec) != "record-006" {
		t.Fatalf("after resuming: %q, %v", rec, err)
	}
}

// TestTornReported: Torn tells a torn tail from a clean end.
func TestTornReported(t *testing.T) {
	data := encode(t, [][]byte{[]byte("one"), []byte("two")})
	r := NewReader(data)
	for {
		if _, err := r.Next(); err != nil {
			break
		}
	}
	if torn, _ := r.Torn(); torn {
		t.Fatal("clean end reported torn")
	}
	r = NewReader(data[:len(data)-1])
	for {
		if _, err := r.Next(); err != nil {
			break
		}
	}
	if torn, off := r.Torn(); !torn || off != HeaderSize+3 {
		t.Fatalf("torn %v at %d, want true at %d", torn, off, HeaderSize+3)
	}
}

// TestChecksumMismatchAtEnd: a damaged last fragment has nothing that
// decodes after it.
func TestChecksumMismatchAtEnd(t *testing.T) {
	data := encode(t, [][]byte{[]byte("one"), []byte("two")})
	data[len(data)-1] ^= 1
	r := NewReader(data)
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrCorruption) || r.DataAfterCorruption() {
		t.Fatalf("got %v, data after %v; want corruption with nothing after", err, r.DataAfterCorruption())
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the damage: %v, want io.EOF", err)
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

// BenchmarkReader reads a log of 116-byte records (fillrandom's WAL
// records at db_bench's defaults) and some split ones.
func BenchmarkReader(b *testing.B) {
	var out bytes.Buffer
	w := NewWriter(&out)
	for i := range 20000 {
		if i%1000 == 0 {
			w.AddRecord(make([]byte, 3*BlockSize))
		}
		w.AddRecord(make([]byte, 116))
	}
	_ = w.Flush()
	data := out.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		r := NewReader(data)
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}
