package wal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand"
	"testing"

	"github.com/godbbench/godbbench/internal/record"
)

func testCompressor(t testing.TB) *Compressor {
	c, err := NewCompressor()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// encodeCompressed writes recs to a compressed log, flushing after each.
func encodeCompressed(t testing.TB, recs [][]byte) []byte {
	var out bytes.Buffer
	w := NewCompressedWriter(&out, testCompressor(t))
	for _, r := range recs {
		w.AddRecord(r)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}

// batchLike returns n bytes that compress as write batches do: random
// bytes, each repeated once (compression_ratio 0.5), with a counter.
func batchLike(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	rng.Read(b[:n/2])
	copy(b[n/2:], b[:n/2])
	return b
}

func compressedRecords() [][]byte {
	rng := rand.New(rand.NewSource(7))
	var recs [][]byte
	for i := range 300 {
		n := rng.Intn(500)
		if i%60 == 0 {
			n = rng.Intn(3 * BlockSize)
		}
		recs = append(recs, batchLike(rng, n))
	}
	return append(recs, nil, bytes.Repeat([]byte("z"), 5*BlockSize))
}

func TestCompressedRoundTrip(t *testing.T) {
	recs := compressedRecords()
	data := encodeCompressed(t, recs)
	checkReadsBack(t, data, recs)
	plain := encode(t, recs)
	if len(data) >= len(plain)*3/4 {
		t.Fatalf("compressed log is %d bytes, the plain one %d: records of half-repeated bytes should shrink by more than a quarter", len(data), len(plain))
	}
}

// TestCompressedLayout checks the bytes doc.go describes: the compression
// chunk, then a record whose payload is a zstd frame of the record.
func TestCompressedLayout(t *testing.T) {
	data := encodeCompressed(t, [][]byte{[]byte("hello hello hello")})
	if len(data) < 2*HeaderSize+4 {
		t.Fatalf("log of %d bytes", len(data))
	}
	head := data[:HeaderSize+4]
	if !bytes.Equal(head[4:], []byte{4, 0, 9, ZSTD, 0, 0, 0}) {
		t.Fatalf("compression chunk % x", head)
	}
	if want := record.MaskCRC(crc32.Checksum(head[6:], record.Castagnoli)); binary.LittleEndian.Uint32(head) != want {
		t.Fatalf("compression chunk checksum %x, want %x", binary.LittleEndian.Uint32(head), want)
	}
	rec := data[HeaderSize+4:]
	n := int(binary.LittleEndian.Uint16(rec[4:]))
	if rec[6] != 1 || len(rec) != HeaderSize+n || !bytes.Equal(rec[HeaderSize:HeaderSize+4], zstdMagic[:]) {
		t.Fatalf("record chunk % x: want one FULL chunk holding a zstd frame", rec)
	}
	dec, err := newDecoder(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := dec.DecodeAll(rec[HeaderSize:], nil); err != nil || string(out) != "hello hello hello" {
		t.Fatalf("frame decodes to %q, %v", out, err)
	}
}

// TestEmptyCompressedLog: a compressed log's writer that never flushed
// left an empty file; one flushed with no records holds only its
// compression chunk. Both read as no records, with no torn tail.
func TestEmptyCompressedLog(t *testing.T) {
	var out bytes.Buffer
	w := NewCompressedWriter(&out, testCompressor(t))
	for _, data := range [][]byte{nil, func() []byte { _ = w.Flush(); return out.Bytes() }()} {
		r := NewReader(data)
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("%d bytes: %v, want io.EOF", len(data), err)
		}
		if torn, _ := r.Torn(); torn {
			t.Fatalf("%d bytes: torn", len(data))
		}
	}
}

// TestCompressedTornTailIsEOF: a compressed log cut anywhere reads as a
// prefix of its records, as a plain one does.
func TestCompressedTornTailIsEOF(t *testing.T) {
	recs := compressedRecords()[:80]
	data := encodeCompressed(t, recs)
	step := max(1, len(data)/samples(600))
	for cut := 0; cut < len(data); cut = nextCut(cut, step) {
		n := readsPrefix(t, data[:cut], recs)
		// The same cut in a preallocated, mapped log: zeros after it.
		padded := append(append([]byte(nil), data[:cut]...), make([]byte, 4096)...)
		if got, err := readAll(padded); err != nil || len(got) != n {
			t.Fatalf("cut %d with a zero tail: %d records, %v; want %d", cut, len(got), err, n)
		}
	}
}

// samples is n, or a tenth of it under -short (the race detector's runs).
func samples(n int) int {
	if testing.Short() {
		return n / 10
	}
	return n
}

// nextCut steps through a log: every offset in its first chunks, then
// every step bytes.
func nextCut(cut, step int) int {
	if cut < 64 {
		return cut + 1
	}
	return cut + step
}

// TestCompressedFlipNeverWrongData: any flipped bit of a compressed log
// reads as corruption or a shorter log, and every record returned is the
// one written at its place.
func TestCompressedFlipNeverWrongData(t *testing.T) {
	recs := compressedRecords()[:12]
	data := encodeCompressed(t, recs)
	step := max(1, len(data)/samples(3000))
	for i := 0; i < len(data); i += step {
		d := append([]byte(nil), data...)
		d[i] ^= 1 << (i % 8)
		r := NewReader(d)
		r.SetStrictTail(true)
		next := 0
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if !errors.Is(err, ErrCorruption) {
					t.Fatalf("flip at %d: %v does not wrap ErrCorruption", i, err)
				}
				continue
			}
			for next < len(recs) && !bytes.Equal(rec, recs[next]) {
				next++
			}
			if next == len(recs) {
				t.Fatalf("flip at %d: a record that was never written, or out of order", i)
			}
			next++
		}
	}
}

// TestCompressionChunkElsewhereIsCorruption: a compression chunk past the
// log's first chunk is damage, and the records around it still read.
func TestCompressionChunkElsewhereIsCorruption(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	w.AddRecord([]byte("one"))
	w.addChunk(record.SetCompressionType, []byte{ZSTD, 0, 0, 0})
	w.AddRecord([]byte("two"))
	_ = w.Flush()
	r := NewReader(out.Bytes())
	if rec, err := r.Next(); err != nil || string(rec) != "one" {
		t.Fatalf("first record: %q, %v", rec, err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrCorruption) || !r.DataAfterCorruption() {
		t.Fatalf("got %v (data after %v), want corruption with data after", err, r.DataAfterCorruption())
	}
	if rec, err := r.Next(); err != nil || string(rec) != "two" {
		t.Fatalf("after the damage: %q, %v", rec, err)
	}
}

// TestUnsupportedCompressionIsCorruption: a log compressed by a type this
// reader does not decompress gives corruption for each record, never the
// stored bytes.
func TestUnsupportedCompressionIsCorruption(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	w.addChunk(record.SetCompressionType, []byte{1, 0, 0, 0}) // snappy
	w.AddRecord([]byte("stored as is"))
	w.AddRecord([]byte("and another"))
	_ = w.Flush()
	r := NewReader(out.Bytes())
	for i := range 2 {
		if rec, err := r.Next(); !errors.Is(err, ErrCorruption) {
			t.Fatalf("record %d: %q, %v; want corruption", i, rec, err)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
}

// TestLostCompressionChunk: when the compression chunk itself is damaged,
// the records after it are still read as compressed, never as stored.
func TestLostCompressionChunk(t *testing.T) {
	recs := [][]byte{[]byte("first batch"), []byte("second batch")}
	data := encodeCompressed(t, recs)
	data[HeaderSize] ^= 0xff // the compression chunk's value
	r := NewReader(data)
	if _, err := r.Next(); !errors.Is(err, ErrCorruption) || !r.DataAfterCorruption() {
		t.Fatalf("got %v, want corruption with data after", err)
	}
	for i, want := range recs {
		if rec, err := r.Next(); err != nil || !bytes.Equal(rec, want) {
			t.Fatalf("record %d: %q, %v; want %q", i, rec, err, want)
		}
	}
}

func TestCompressedWriteAndReadAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	rng := rand.New(rand.NewSource(3))
	rec := batchLike(rng, 430) // a fillrandom batch at --value_size=400
	w := NewCompressedWriter(io.Discard, testCompressor(t))
	w.AddRecord(rec)
	_ = w.Flush()
	if n := testing.AllocsPerRun(200, func() {
		w.AddRecord(rec)
		_ = w.Flush()
	}); n != 0 {
		t.Errorf("AddRecord+Flush: %v allocations per record", n)
	}
	data := encodeCompressed(t, [][]byte{rec, rec, rec})
	r := NewReader(data)
	if n := testing.AllocsPerRun(200, func() {
		r.Reset(data)
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}); n != 0 {
		t.Errorf("Next: %v allocations per log of 3 records", n)
	}
}

// FuzzDecompress: any bytes given to the record decoder give a record or
// an error, never a panic, and a frame that decodes re-encodes to bytes
// that decode to the same record.
func FuzzDecompress(f *testing.F) {
	c := testCompressor(f)
	for _, s := range []string{"", "a", "hello hello hello hello", string(bytes.Repeat([]byte("xy"), 5000))} {
		f.Add(c.encode([]byte(s), nil))
	}
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd})
	dec, err := newDecoder(1 << 24)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		out, err := decompress(dec, frame, nil)
		if err != nil {
			return
		}
		again, err := decompress(dec, c.encode(out, nil), nil)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("a decoded record does not survive a round trip: %v", err)
		}
	})
}

// FuzzCompressedLog: a compressed log of the fuzzer's records, one byte
// of it overwritten, reads without a panic and returns only records that
// were written, in order.
func FuzzCompressedLog(f *testing.F) {
	f.Add([]byte("one\x00two\x00three"), 10, byte(0xff))
	f.Add(bytes.Repeat([]byte("abc\x00"), 3000), 5000, byte(1))
	c := testCompressor(f)
	f.Fuzz(func(t *testing.T, joined []byte, at int, x byte) {
		recs := bytes.Split(joined, []byte{0})
		var out bytes.Buffer
		w := NewCompressedWriter(&out, c)
		for _, r := range recs {
			w.AddRecord(r)
		}
		_ = w.Flush()
		data := out.Bytes()
		if at < 0 || len(data) == 0 {
			return
		}
		data[at%len(data)] ^= x
		r := NewReader(data)
		next := 0
		for range 2 * len(recs) {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				continue
			}
			for next < len(recs) && !bytes.Equal(rec, recs[next]) {
				next++
			}
			if next == len(recs) {
				t.Fatalf("record %q was never written at or after the last one read", rec)
			}
			next++
		}
	})
}

// BenchmarkCompressedAddRecordFlush compresses and writes fillrandom's
// WAL records at --value_size=400 --compression_ratio=0.5.
func BenchmarkCompressedAddRecordFlush(b *testing.B) {
	for _, compressed := range []bool{false, true} {
		b.Run(fmt.Sprintf("zstd=%v", compressed), func(b *testing.B) {
			rng := rand.New(rand.NewSource(1))
			recs := make([][]byte, 64)
			for i := range recs {
				recs[i] = batchLike(rng, 430)
			}
			w := NewWriter(io.Discard)
			if compressed {
				w = NewCompressedWriter(io.Discard, testCompressor(b))
			}
			b.ReportAllocs()
			b.SetBytes(430)
			n := 0
			for ; b.Loop(); n++ {
				w.AddRecord(recs[n%len(recs)])
				_ = w.Flush()
			}
			b.ReportMetric(float64(w.Size())/float64(n), "B/rec")
		})
	}
}

// BenchmarkCompressedReader reads a log of 20,000 fillrandom records at
// --value_size=400 --compression_ratio=0.5, plain and compressed: the
// cost recovery pays per WAL.
func BenchmarkCompressedReader(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	recs := make([][]byte, 20000)
	for i := range recs {
		recs[i] = batchLike(rng, 430)
	}
	for _, compressed := range []bool{false, true} {
		b.Run(fmt.Sprintf("zstd=%v", compressed), func(b *testing.B) {
			data := encode(b, recs)
			if compressed {
				data = encodeCompressed(b, recs)
			}
			r := NewReader(data)
			b.ReportAllocs()
			b.SetBytes(int64(len(recs) * 430))
			for b.Loop() {
				r.Reset(data)
				for {
					if _, err := r.Next(); err != nil {
						break
					}
				}
			}
		})
	}
}
