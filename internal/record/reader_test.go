package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"testing"
)

// logWriter writes chunks of any of the three layouts, for the tests: a
// record that does not fit in its block is split as writers split it.
type logWriter struct {
	buf    []byte
	typ0   byte   // 1, 5 or 9: the whole-record type of the layout
	logNum uint32 // carried by types 5-12
}

func (w *logWriter) add(p []byte) {
	hs := headerSize(w.typ0, true)
	first := true
	for {
		left := BlockSize - len(w.buf)%BlockSize
		if left < hs {
			w.buf = append(w.buf, make([]byte, left)...)
			left = BlockSize
		}
		n := min(len(p), left-hs)
		last := n == len(p)
		kind := byte(kindMiddle)
		switch {
		case first && last:
			kind = kindFull
		case first:
			kind = kindFirst
		case last:
			kind = kindLast
		}
		h := len(w.buf)
		w.buf = append(w.buf, make([]byte, hs)...)
		w.buf[h+6] = w.typ0 + kind
		if hs > LegacyHeaderSize {
			binary.LittleEndian.PutUint32(w.buf[h+7:], w.logNum)
		}
		binary.LittleEndian.PutUint16(w.buf[h+4:], uint16(n))
		w.buf = append(w.buf, p[:n]...)
		binary.LittleEndian.PutUint32(w.buf[h:], MaskCRC(crc32.Checksum(w.buf[h+6:], Castagnoli)))
		p, first = p[n:], false
		if last {
			return
		}
	}
}

func records() [][]byte {
	return [][]byte{
		[]byte("one"), {}, bytes.Repeat([]byte("b"), BlockSize+100),
		bytes.Repeat([]byte("c"), 3*BlockSize), []byte("last"),
	}
}

func readAll(r *Reader) ([][]byte, error) {
	var out [][]byte
	for {
		rec, err := r.Next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
		out = append(out, bytes.Clone(rec))
	}
}

func same(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestLayouts reads logs written in each chunk layout back.
func TestLayouts(t *testing.T) {
	for _, typ0 := range []byte{1, 5, 9} {
		w := &logWriter{typ0: typ0, logNum: 42}
		for _, rec := range records() {
			w.add(rec)
		}
		got, err := readAll(NewRecyclableReader(w.buf, 42))
		if err != nil || !same(got, records()) {
			t.Errorf("layout %d: %d records, %v", typ0, len(got), err)
		}
		if typ0 != 1 {
			if _, err := readAll(NewReader(w.buf)); !errors.Is(err, ErrCorruption) {
				t.Errorf("layout %d through a legacy reader: %v, want corruption", typ0, err)
			}
		}
	}
}

// TestRecyclablePadding fills a block up to each tail shorter than the
// headers of the recyclable layouts: the writer leaves zeros there, which
// are padding, not a zeroed header with data after it.
func TestRecyclablePadding(t *testing.T) {
	for _, typ0 := range []byte{5, 9} {
		hs := headerSize(typ0, true)
		for left := 1; left < hs; left++ {
			w := &logWriter{typ0: typ0, logNum: 3}
			w.add(make([]byte, BlockSize-hs-left))
			w.add([]byte("next block"))
			r := NewRecyclableReader(w.buf, 3)
			got, err := readAll(r)
			if err != nil || len(got) != 2 || string(got[1]) != "next block" {
				t.Errorf("layout %d, %d bytes left: %d records, %v", typ0, left, len(got), err)
			}
		}
	}
}

// TestRecycledFile writes a new log over an older, longer one in the same
// file. Where the new log ends at a chunk boundary of the old one, the
// reader stops at the old log's chunk: the end, not torn. Elsewhere it
// meets the middle of an old chunk: corruption, with nothing of the new
// log after it.
func TestRecycledFile(t *testing.T) {
	old := &logWriter{typ0: 5, logNum: 7}
	for range 50 {
		old.add(bytes.Repeat([]byte("o"), 1000))
	}
	for _, size := range []int{1000, 900} {
		w := &logWriter{typ0: 5, logNum: 8}
		w.add(bytes.Repeat([]byte("n"), size))
		w.add(bytes.Repeat([]byte("n"), size))
		data := append(bytes.Clone(w.buf), old.buf[len(w.buf):]...)
		r := NewRecyclableReader(data, 8)
		got, err := readAll(r)
		if len(got) != 2 {
			t.Fatalf("records of %d bytes: %d records, %v; want the new log's 2", size, len(got), err)
		}
		torn, _ := r.Torn()
		switch {
		case size == 1000 && (err != nil || torn):
			t.Errorf("aligned: %v, torn %v; want the end", err, torn)
		case size == 900 && (!errors.Is(err, ErrCorruption) || r.DataAfterCorruption()):
			t.Errorf("not aligned: %v, data after %v; want corruption, nothing after", err, r.DataAfterCorruption())
		}
	}
}

// TestStrictTail: a torn tail is the end of the log, or corruption in
// strict mode.
func TestStrictTail(t *testing.T) {
	w := &logWriter{typ0: 1}
	for _, rec := range records() {
		w.add(rec)
	}
	cut := w.buf[:len(w.buf)-2]
	r := NewReader(cut)
	got, err := readAll(r)
	if torn, _ := r.Torn(); err != nil || !torn || len(got) != len(records())-1 {
		t.Fatalf("torn tail: %d records, %v, torn %v", len(got), err, torn)
	}
	r.SetStrictTail(true)
	r.Reset(cut)
	got, err = readAll(r)
	if !errors.Is(err, ErrCorruption) || len(got) != len(records())-1 {
		t.Fatalf("strict: %d records, %v; want the whole ones then corruption", len(got), err)
	}
	// The whole log reads the same in both modes.
	r.Reset(w.buf)
	if got, err := readAll(r); err != nil || !same(got, records()) {
		t.Fatalf("strict, whole log: %d records, %v", len(got), err)
	}
}

// TestDamageInTheMiddle: a flipped byte with records of this log after it
// is corruption with data after it; with another log's records after it,
// it is not.
func TestDamageInTheMiddle(t *testing.T) {
	w := &logWriter{typ0: 9, logNum: 3}
	for range 10 {
		w.add(bytes.Repeat([]byte("x"), 5000))
	}
	data := bytes.Clone(w.buf)
	data[100] ^= 1
	r := NewRecyclableReader(data, 3)
	_, err := readAll(r)
	if !errors.Is(err, ErrCorruption) || !r.DataAfterCorruption() || r.CorruptionOffset() != 0 {
		t.Fatalf("%v, data after %v at %d; want corruption at 0 with data after", err, r.DataAfterCorruption(), r.CorruptionOffset())
	}
	r.SetLogNum(4)
	r.Reset(data)
	if _, err := readAll(r); !errors.Is(err, ErrCorruption) || r.DataAfterCorruption() {
		t.Fatalf("another log's reader: %v, data after %v; want corruption with nothing after", err, r.DataAfterCorruption())
	}
}

// TestNoAllocationPerRecord reads a log of whole and split records again
// through Reset: once the buffer has grown, nothing is allocated.
func TestNoAllocationPerRecord(t *testing.T) {
	w := &logWriter{typ0: 1}
	for range 20 {
		for _, rec := range records() {
			w.add(rec)
		}
	}
	r := NewReader(w.buf)
	if _, err := readAll(r); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		r.Reset(w.buf)
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pass over %d records", allocs, 20*len(records()))
	}
}

func FuzzReader(f *testing.F) {
	for _, typ0 := range []byte{1, 5, 9} {
		w := &logWriter{typ0: typ0, logNum: 1}
		for _, rec := range records()[:3] {
			w.add(rec)
		}
		f.Add(w.buf, true, false)
		f.Add(w.buf[:len(w.buf)/2], true, true)
	}
	f.Add([]byte{}, false, false)
	f.Fuzz(func(t *testing.T, data []byte, recyclable, strict bool) {
		r := NewReader(data)
		if recyclable {
			r = NewRecyclableReader(data, 1)
		}
		r.SetStrictTail(strict)
		for range 1000 {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				if !errors.Is(err, ErrCorruption) {
					t.Fatalf("error %v does not wrap ErrCorruption", err)
				}
				continue
			}
			if len(rec) > len(data) {
				t.Fatalf("a record of %d bytes from %d", len(rec), len(data))
			}
		}
	})
}
