package tracefmt

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// reencode reads the trace in data and writes every record again from its
// decoded fields, so that the output equals data exactly when both the
// decoder and the encoder follow RocksDB's format.
func reencode(t testing.TB, data []byte) ([]byte, error) {
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	w, err := NewWriter(&out, r.HeaderTS())
	if err != nil {
		return nil, err
	}
	var keys [][]byte
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		var werr error
		switch rec.Type {
		case TypeWrite:
			batch, err := DecodeWrite(r.Version(), rec.Payload)
			if err != nil {
				return nil, err
			}
			var copyOf Batch
			copyOf.Reset()
			if err := BatchEntries(batch, func(e *Entry) error {
				switch e.Kind {
				case EntryPut:
					copyOf.Put(e.Key, e.Value)
				case EntryMerge:
					copyOf.Merge(e.Key, e.Value)
				case EntryDelete:
					copyOf.Delete(e.Key)
				case EntrySingleDelete:
					copyOf.SingleDelete(e.Key)
				case EntryDeleteRange:
					copyOf.DeleteRange(e.Key, e.Value)
				}
				return nil
			}); err != nil {
				return nil, err
			}
			werr = w.Write(rec.TS, copyOf.Bytes())
		case TypeGet:
			cf, key, err := DecodeGet(r.Version(), rec.Payload)
			if err != nil {
				return nil, err
			}
			werr = w.Get(rec.TS, cf, key)
		case TypeSeek, TypeSeekForPrev:
			cf, key, lo, hi, err := DecodeSeek(r.Version(), rec.Payload)
			if err != nil {
				return nil, err
			}
			werr = w.Seek(rec.TS, rec.Type, cf, key, lo, hi)
		case TypeMultiGet:
			keys = keys[:0]
			_, werr = DecodeMultiGet(r.Version(), rec.Payload, func(_ uint32, key []byte) {
				keys = append(keys, key)
			})
			if werr == nil {
				werr = w.MultiGet(rec.TS, 0, keys)
			}
		default:
			t.Logf("record type %d left out", rec.Type)
		}
		if werr != nil {
			return nil, werr
		}
	}
	if err := w.Close(r.EndTS()); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// TestCxxTracesReencodeByteForByte reads traces C++ db_bench 7.8.3 wrote
// (fillrandom's writes, seekrandom's seeks, multireadrandom's MultiGets)
// and writes them again: the bytes must be the same.
func TestCxxTracesReencodeByteForByte(t *testing.T) {
	files, _ := filepath.Glob("testdata/cxx_*.trace")
	if len(files) < 3 {
		t.Fatalf("want the three C++ traces in testdata, found %v", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := reencode(t, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s: re-encoded trace differs:\n got %x\nwant %x", f, got, data)
		}
	}
}

// TestRoundTrip writes one record of every kind and reads them back.
func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, 100)
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	b.Put([]byte("k1"), []byte("v1"))
	b.Delete([]byte("k2"))
	b.Merge([]byte("k3"), []byte("m"))
	b.SingleDelete([]byte("k4"))
	b.DeleteRange([]byte("a"), []byte("z"))
	must(t, w.Write(101, b.Bytes()))
	must(t, w.Get(102, 0, []byte("g")))
	must(t, w.Seek(103, TypeSeek, 0, []byte("s"), nil, []byte("u")))
	must(t, w.Seek(104, TypeSeekForPrev, 3, []byte("p"), []byte("l"), nil))
	must(t, w.MultiGet(105, 0, [][]byte{[]byte("aa"), []byte("bbb"), []byte("c")}))
	must(t, w.Close(106))

	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version() != FileVersion || r.HeaderTS() != 100 {
		t.Fatalf("header: version %d ts %d", r.Version(), r.HeaderTS())
	}
	var got []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		must(t, err)
		switch rec.Type {
		case TypeWrite:
			batch, err := DecodeWrite(r.Version(), rec.Payload)
			must(t, err)
			must(t, BatchEntries(batch, func(e *Entry) error {
				got = append(got, string(rune('0'+e.Kind))+string(e.Key)+"="+string(e.Value))
				return nil
			}))
		case TypeGet:
			_, key, err := DecodeGet(r.Version(), rec.Payload)
			must(t, err)
			got = append(got, "get "+string(key))
		case TypeSeek, TypeSeekForPrev:
			cf, key, lo, hi, err := DecodeSeek(r.Version(), rec.Payload)
			must(t, err)
			got = append(got, "seek"+string(rune('0'+rec.Type))+" "+string(rune('0'+cf))+string(key)+"["+string(lo)+","+string(hi)+")")
		case TypeMultiGet:
			_, err := DecodeMultiGet(r.Version(), rec.Payload, func(_ uint32, key []byte) { got = append(got, "mget "+string(key)) })
			must(t, err)
		}
	}
	want := []string{"0k1=v1", "1k2=", "3k3=m", "2k4=", "4a=z", "get g", "seek5 0s[,u)", "seek6 3p[l,)", "mget aa", "mget bbb", "mget c"}
	if len(got) != len(want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	}
}

// TestBadHeaders: a file that is not a trace is refused in RocksDB's words.
func TestBadHeaders(t *testing.T) {
	var good bytes.Buffer
	w, _ := NewWriter(&good, 1)
	must(t, w.Close(2))
	badMagic := bytes.Clone(good.Bytes())
	badMagic[recordHeaderSize] = 'x'
	badType := bytes.Clone(good.Bytes())
	badType[8] = byte(TypeGet)
	for name, data := range map[string][]byte{"empty": nil, "magic": badMagic, "type": badType, "cut": good.Bytes()[:20]} {
		if _, err := NewReader(bytes.NewReader(data)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err %v, want corruption", name, err)
		}
	}
}

// TestBatchCountMismatch: a batch whose count disagrees is corrupt.
func TestBatchCountMismatch(t *testing.T) {
	var b Batch
	b.Put([]byte("k"), []byte("v"))
	data := bytes.Clone(b.Bytes())
	data[8] = 2
	if err := BatchEntries(data, func(*Entry) error { return nil }); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("err %v, want corruption", err)
	}
}

// TestWriterAllocatesNothing: recording a get and a write reuses the buffers.
func TestWriterAllocatesNothing(t *testing.T) {
	w, err := NewWriter(io.Discard, 1)
	must(t, err)
	var b Batch
	key, value := []byte("0123456789abcdef"), make([]byte, 100)
	allocs := testing.AllocsPerRun(1000, func() {
		b.Reset()
		b.Put(key, value)
		_ = w.Write(2, b.Bytes())
		_ = w.Get(3, 0, key)
		_ = w.Seek(4, TypeSeek, 0, key, nil, nil)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per record", allocs)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
