package rtable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// checkBatches walks r in batches of varying size from every start a
// positioning can give, in both directions, with and without values, and
// compares each record with the model.
func checkBatches(t *testing.T, r *Reader, m model, rng *rand.Rand) {
	t.Helper()
	it := r.NewIter()
	defer it.Close()
	for _, reverse := range []bool{false, true} {
		for _, values := range []bool{false, true} {
			ok := it.First()
			want, step := 0, 1
			if reverse {
				ok, want, step = it.Last(), len(m)-1, -1
			}
			var buf []byte
			for ok {
				o := BatchOptions{MaxEntries: 1 + rng.IntN(70), MaxBytes: 1 + rng.IntN(4000), Reverse: reverse, Values: values}
				var n int
				var more bool
				var err error
				buf, n, more, err = it.AppendBatch(buf[:0], o)
				if err != nil || n < 1 || n > o.MaxEntries {
					t.Fatalf("AppendBatch(%+v) at %d: %d records, %v", o, want, n, err)
				}
				for b := buf; len(b) > 0; want += step {
					b = checkRecord(t, b, m[want], values, fmt.Sprintf("reverse %v values %v entry %d", reverse, values, want))
				}
				if more != (want >= 0 && want < len(m)) {
					t.Fatalf("AppendBatch says more=%v before entry %d of %d", more, want, len(m))
				}
				if last := want - step; it.Key() == nil || !bytes.Equal(it.Key(), m[last].key) || it.Seq() != m[last].seq {
					t.Fatalf("after the batch the iterator is on %q seq %d, want entry %d", it.Key(), it.Seq(), last)
				}
				ok = more && (reverse && it.Prev() || !reverse && it.Next())
			}
			if want != len(m) && want != -1 {
				t.Fatalf("reverse %v values %v: batches stopped at entry %d of %d", reverse, values, want, len(m))
			}
		}
	}
	// A batch from a seek starts at the seek's entry.
	for _, k := range probeKeys(rng, m) {
		lb := m.lowerBound(k)
		if !it.SeekGE(k) {
			continue
		}
		buf, n, _, err := it.AppendBatch(nil, BatchOptions{MaxEntries: 3, MaxBytes: 1 << 20, Values: true})
		if err != nil || n != min(3, len(m)-lb) {
			t.Fatalf("AppendBatch after SeekGE(%q): %d records, %v", k, n, err)
		}
		for i := range n {
			buf = checkRecord(t, buf, m[lb+i], true, fmt.Sprintf("SeekGE(%q)+%d", k, i))
		}
	}
	for ok := it.Last(); ok; ok = it.Next() {
	}
	if _, n, more, _ := it.AppendBatch(nil, BatchOptions{MaxEntries: 1}); n != 0 || more {
		t.Fatalf("AppendBatch past the last entry gave %d records, more %v", n, more)
	}
}

// checkRecord checks the batch record at the start of b against e and
// returns the rest of b.
func checkRecord(t *testing.T, b []byte, e entry, values bool, what string) []byte {
	t.Helper()
	if len(b) < BatchRecordHeader {
		t.Fatalf("%s: %d bytes left, short of a record header", what, len(b))
	}
	tr := base.Trailer(binary.LittleEndian.Uint64(b))
	kl, vl := int(binary.LittleEndian.Uint32(b[8:])), int(binary.LittleEndian.Uint32(b[12:]))
	b = b[BatchRecordHeader:]
	if kl+vl > len(b) {
		t.Fatalf("%s: record of key %d and value %d bytes overruns the batch's %d", what, kl, vl, len(b))
	}
	key, value := b[:kl], b[kl:kl+vl]
	wantValue := e.value
	if !values {
		wantValue = nil
	}
	if !bytes.Equal(key, e.key) || tr.Seq() != e.seq || tr.Kind() != e.kind || !bytes.Equal(value, wantValue) {
		t.Fatalf("%s: got %q seq %d kind %d %q, want %q seq %d kind %d %q", what, key, tr.Seq(), tr.Kind(), value, e.key, e.seq, e.kind, wantValue)
	}
	return b[kl+vl:]
}

// checkKeyBatches walks r with AppendKeys in batches of varying size, in
// both directions, and compares each key with the model, when r is
// Uniform; otherwise it checks that AppendKeys appends nothing.
func checkKeyBatches(t *testing.T, r *Reader, m model, rng *rand.Rand) {
	t.Helper()
	it := r.NewIter()
	defer it.Close()
	trailer, keyLen, uniform := r.Uniform()
	if !uniform {
		it.First()
		if out, n, more := it.AppendKeys([]byte("x"), BatchOptions{MaxEntries: 10}); n != 0 || more || string(out) != "x" {
			t.Fatalf("AppendKeys on a table that is not uniform appended %d keys (%q), more %v", n, out, more)
		}
		return
	}
	for _, e := range m {
		if len(e.key) != keyLen || e.seq != trailer.Seq() || e.kind != trailer.Kind() {
			t.Fatalf("Uniform says keys of %d bytes at %d/%d; entry %q seq %d kind %d", keyLen, trailer.Seq(), trailer.Kind(), e.key, e.seq, e.kind)
		}
	}
	for _, reverse := range []bool{false, true} {
		ok := it.First()
		want, step := 0, 1
		if reverse {
			ok, want, step = it.Last(), len(m)-1, -1
		}
		buf := []byte("head")
		for ok {
			o := BatchOptions{MaxEntries: 1 + rng.IntN(70), MaxBytes: 1 + rng.IntN(400), Reverse: reverse}
			var n int
			var more bool
			buf, n, more = it.AppendKeys(buf[:4], o)
			if n < 1 || n > o.MaxEntries || len(buf) != 4+n*keyLen || string(buf[:4]) != "head" {
				t.Fatalf("AppendKeys(%+v) at %d: %d keys in %d bytes after the 4 there", o, want, n, len(buf)-4)
			}
			if (n-1)*keyLen >= o.MaxBytes {
				t.Fatalf("AppendKeys(%+v) went on past %d bytes: %d keys of %d", o, o.MaxBytes, n, keyLen)
			}
			for b := buf[4:]; len(b) > 0; want, b = want+step, b[keyLen:] {
				if !bytes.Equal(b[:keyLen], m[want].key) {
					t.Fatalf("reverse %v key %d: got %q, want %q", reverse, want, b[:keyLen], m[want].key)
				}
			}
			if more != (want >= 0 && want < len(m)) {
				t.Fatalf("AppendKeys says more=%v before entry %d of %d", more, want, len(m))
			}
			if last := want - step; !bytes.Equal(it.Key(), m[last].key) {
				t.Fatalf("after the batch the iterator is on %q, want entry %d", it.Key(), last)
			}
			ok = more && (reverse && it.Prev() || !reverse && it.Next())
		}
		if want != len(m) && want != -1 {
			t.Fatalf("reverse %v: key batches stopped at entry %d of %d", reverse, want, len(m))
		}
	}
	for ok := it.Last(); ok; ok = it.Next() {
	}
	if _, n, more := it.AppendKeys(nil, BatchOptions{MaxEntries: 1}); n != 0 || more {
		t.Fatalf("AppendKeys past the last entry gave %d keys, more %v", n, more)
	}
}

func TestAppendBatch(t *testing.T) {
	for _, s := range shapes {
		for _, opts := range []WriterOptions{{}, {ValueCompression: ValueSnappy}, {ValueCompression: ValueDict}} {
			t.Run(fmt.Sprintf("%s/%+v", s.name, opts), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(3, 4))
				es := sortEntries(s.gen(rng))
				r, _ := writeTable(t, es, opts)
				checkBatches(t, r, model(es), rng)
				checkKeyBatches(t, r, model(es), rng)
			})
		}
	}
}

// TestAppendBatchPackedLayouts checks batches without values (written by
// packedRecord's word stores) on tables of packed keys with every kind of
// layout: prefixes and suffixes empty, shorter than a word and longer, and
// varying parts of 1 to 8 bytes.
func TestAppendBatchPackedLayouts(t *testing.T) {
	for _, prefixLen := range []int{0, 3, 8, 12} {
		for _, suffixLen := range []int{0, 2, 9, 20} {
			for _, w := range []int{1, 3, 8} {
				for _, uniform := range []bool{false, true} {
					t.Run(fmt.Sprintf("prefix%d/w%d/suffix%d/uniform%v", prefixLen, w, suffixLen, uniform), func(t *testing.T) {
						rng := rand.New(rand.NewPCG(uint64(prefixLen), uint64(w*100+suffixLen)))
						prefix := bytes.Repeat([]byte{'p'}, prefixLen)
						suffix := bytes.Repeat([]byte{'s'}, suffixLen)
						var es []entry
						for i := range 200 {
							// The varying part's first and last bytes both vary.
							v := uint64(i) | uint64(i%7)<<(8*uint(w-1))
							var vb [8]byte
							binary.BigEndian.PutUint64(vb[:], v)
							k := append(append(append([]byte{}, prefix...), vb[8-w:]...), suffix...)
							seq := rng.Uint64N(100)
							if uniform {
								seq = 0
							}
							es = append(es, entry{k, seq, base.KindSet, []byte("v")})
						}
						es = sortEntries(es)
						r, _ := writeTable(t, es, WriterOptions{})
						if r.m.keyMode != keysPacked || int(r.m.keyWidth) != w {
							t.Fatalf("the table's keys are in mode %d, width %d; want packed keys of width %d", r.m.keyMode, r.m.keyWidth, w)
						}
						checkBatches(t, r, model(es), rng)
						checkKeyBatches(t, r, model(es), rng)
					})
				}
			}
		}
	}
}

// BenchmarkAppendBatchKeys copies keys without values in batches of 64,
// as lsm's rtableIter does on a key-only scan, from a table of 1M entries
// at sequence 0 (a bottommost table) with db_bench's 8- and 16-byte keys,
// as batch records (AppendBatch) and as bare keys (AppendKeys); an op is
// one entry; cpu-ns/op is the process's CPU time per entry.
func BenchmarkAppendBatchKeys(b *testing.B) {
	for _, keyLen := range []int{8, 16} {
		for _, bare := range []bool{false, true} {
			name := fmt.Sprintf("k%d", keyLen)
			if bare {
				name += "/bare"
			}
			b.Run(name, func(b *testing.B) {
				es := make([]entry, 1_000_000)
				for i := range es {
					es[i] = entry{dbBenchKey(uint64(i)*3, keyLen), 0, base.KindSet, []byte("v")}
				}
				r, _ := writeTable(b, es, WriterOptions{})
				it := r.NewIter()
				defer it.Close()
				var buf []byte
				o := BatchOptions{MaxEntries: 64, MaxBytes: 32 << 10}
				b.ReportAllocs()
				b.ResetTimer()
				defer reportCPU(b, cpuTime())
				ok := it.First()
				for i := 0; i < b.N; {
					if !ok {
						it.First() // wrap around; AppendBatch reports whether it is positioned
					}
					var n int
					if bare {
						buf, n, ok = it.AppendKeys(buf[:0], o)
					} else {
						buf, n, ok, _ = it.AppendBatch(buf[:0], o)
					}
					i += n
					ok = ok && it.Next()
				}
			})
		}
	}
}
