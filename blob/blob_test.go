package blob

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/golden"
	"github.com/godbbench/godbbench/sst"
)

// written is one record's place in a test file.
type written struct {
	key, value  []byte
	offset      uint64
	size        uint64
	compression sst.Compression
}

func writeFile(t testing.TB, compression sst.Compression, kvs [][2][]byte) ([]byte, []written, Properties) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, compression)
	if err != nil {
		t.Fatal(err)
	}
	var ws []written
	for _, kv := range kvs {
		off, size, c, err := w.Add(kv[0], kv[1])
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, written{kv[0], kv[1], off, size, c})
	}
	props, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), ws, props
}

func exampleRecords() [][2][]byte {
	return [][2][]byte{{[]byte("k1"), []byte("hello")}, {[]byte("k2"), []byte("blob")}}
}

// TestGoldenFile pins the bytes of the package comment's worked example.
func TestGoldenFile(t *testing.T) {
	data, ws, props := writeFile(t, sst.CompressionNone, exampleRecords())
	golden.Check(t, filepath.Join("testdata", "example.blob"), string(data))
	if ws[0].offset != 34 || ws[0].size != 5 || ws[1].offset != 61 || ws[1].size != 4 {
		t.Errorf("offsets %+v, want 34/5 and 61/4 as the package comment says", ws)
	}
	if props.Count != 2 || props.BlobBytes != 27+26 || props.FileSize != uint64(len(data)) {
		t.Errorf("properties %+v", props)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, c := range []sst.Compression{sst.CompressionNone, sst.CompressionSnappy, sst.CompressionLZ4, sst.CompressionZstd} {
		t.Run(c.String(), func(t *testing.T) {
			var kvs [][2][]byte
			for i := range 200 {
				kvs = append(kvs, [2][]byte{fmt.Appendf(nil, "key%05d", i), bytes.Repeat(fmt.Appendf(nil, "v%d-", i), i)})
			}
			data, ws, props := writeFile(t, c, kvs)
			r, err := Open(bytes.NewReader(data), int64(len(data)), "x.blob")
			if err != nil {
				t.Fatal(err)
			}
			if r.Footer() != props.Footer || r.Header().Compression != c {
				t.Fatalf("footer %+v header %+v, want %+v and %v", r.Footer(), r.Header(), props.Footer, c)
			}
			var buf Buffer
			compressed := 0
			for _, w := range ws {
				v, err := r.Read(w.key, w.offset, w.size, w.compression, &buf)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(v, w.value) {
					t.Fatalf("key %s: value %q, want %q", w.key, v, w.value)
				}
				if w.compression != sst.CompressionNone {
					compressed++
				}
			}
			if c != sst.CompressionNone && compressed == 0 {
				t.Errorf("no value was stored compressed")
			}
		})
	}
}

func TestReadAllocatesNothing(t *testing.T) {
	for _, c := range []sst.Compression{sst.CompressionNone, sst.CompressionSnappy} {
		kvs := [][2][]byte{{[]byte("key"), bytes.Repeat([]byte("abcd"), 1000)}}
		data, ws, _ := writeFile(t, c, kvs)
		r, err := Open(bytes.NewReader(data), int64(len(data)), "x.blob")
		if err != nil {
			t.Fatal(err)
		}
		var buf Buffer
		w := ws[0]
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := r.Read(w.key, w.offset, w.size, w.compression, &buf); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocations per read, want 0", c, allocs)
		}
	}
}

// TestDamageIsCorruption flips every byte of the example file in turn and
// truncates it at every length: each read either returns the right value
// or an error wrapping ErrCorruption.
func TestDamageIsCorruption(t *testing.T) {
	data, ws, _ := writeFile(t, sst.CompressionNone, exampleRecords())
	check := func(what string, file []byte) {
		r, err := Open(bytes.NewReader(file), int64(len(file)), "x.blob")
		if err != nil {
			if !errors.Is(err, ErrCorruption) {
				t.Errorf("%s: open: %v does not wrap ErrCorruption", what, err)
			}
			return
		}
		var buf Buffer
		for _, w := range ws {
			v, err := r.Read(w.key, w.offset, w.size, w.compression, &buf)
			if err != nil {
				if !errors.Is(err, ErrCorruption) {
					t.Errorf("%s: read %s: %v does not wrap ErrCorruption", what, w.key, err)
				}
				continue
			}
			if !bytes.Equal(v, w.value) {
				t.Errorf("%s: read %s gave %q, want %q", what, w.key, v, w.value)
			}
		}
	}
	for i := range data {
		flipped := bytes.Clone(data)
		flipped[i] ^= 0x40
		check(fmt.Sprintf("byte %d flipped", i), flipped)
	}
	for n := range len(data) {
		check(fmt.Sprintf("truncated to %d", n), data[:n])
	}
	// A file cut after Open: the read runs past its end.
	r, err := Open(bytes.NewReader(data), int64(len(data)), "x.blob")
	if err != nil {
		t.Fatal(err)
	}
	r.f = bytes.NewReader(data[:40])
	if _, err := r.Read(ws[1].key, ws[1].offset, ws[1].size, ws[1].compression, &Buffer{}); !errors.Is(err, ErrCorruption) {
		t.Errorf("read past a shrunk file: %v, want ErrCorruption", err)
	}
}

// TestIndexMismatch reads with a key, size or compression other than the
// record's: an error, never another value.
func TestIndexMismatch(t *testing.T) {
	data, ws, _ := writeFile(t, sst.CompressionNone, exampleRecords())
	r, err := Open(bytes.NewReader(data), int64(len(data)), "x.blob")
	if err != nil {
		t.Fatal(err)
	}
	w := ws[0]
	var buf Buffer
	for name, read := range map[string]func() error{
		"other key":         func() error { _, err := r.Read([]byte("k2"), w.offset, w.size, w.compression, &buf); return err },
		"other size":        func() error { _, err := r.Read(w.key, w.offset, w.size-1, w.compression, &buf); return err },
		"other compression": func() error { _, err := r.Read(w.key, w.offset, w.size, sst.CompressionSnappy, &buf); return err },
		"past the end":      func() error { _, err := r.Read(w.key, uint64(len(data)), 1, w.compression, &buf); return err },
		"before the start":  func() error { _, err := r.Read(w.key, 3, w.size, w.compression, &buf); return err },
	} {
		if err := read(); !errors.Is(err, ErrCorruption) {
			t.Errorf("%s: %v, want ErrCorruption", name, err)
		}
	}
}

func TestOpenMissingFileBytes(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := Open(f, 100, "x.blob"); !errors.Is(err, ErrCorruption) {
		t.Errorf("open of an empty file said to hold 100 bytes: %v, want ErrCorruption", err)
	}
}
