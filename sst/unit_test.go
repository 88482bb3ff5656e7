package sst

import (
	"bytes"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

func TestBloomFalsePositiveRate(t *testing.T) {
	const n = 100_000
	var hashes []uint64
	for i := range n {
		hashes = append(hashes, hashKey(fmt.Appendf(nil, "present-%d", i)))
	}
	for _, tc := range []struct {
		bits    int
		maxRate float64
	}{{10, 0.015}, {16, 0.002}, {5, 0.12}} {
		f, ok := decodeBloom(buildBloom(nil, hashes, tc.bits))
		if !ok {
			t.Fatal("filter does not decode")
		}
		for _, h := range hashes {
			if !f.MayContain(h) {
				t.Fatal("false negative")
			}
		}
		fp := 0
		for i := range n {
			if f.MayContain(hashKey(fmt.Appendf(nil, "absent-%d", i))) {
				fp++
			}
		}
		rate := float64(fp) / n
		t.Logf("%d bits/key: false-positive rate %.4f", tc.bits, rate)
		if rate > tc.maxRate {
			t.Errorf("%d bits/key: false-positive rate %.4f above %.4f", tc.bits, rate, tc.maxRate)
		}
	}
}

func TestParseCompression(t *testing.T) {
	for _, c := range []Compression{CompressionNone, CompressionSnappy, CompressionLZ4, CompressionZstd} {
		got, err := ParseCompression(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCompression(%q) = %v, %v", c.String(), got, err)
		}
	}
	for _, bad := range []string{"zlib", "bzip2", "xpress", "lz4hc", "", "Snappy"} {
		if _, err := ParseCompression(bad); err == nil {
			t.Errorf("ParseCompression(%q) succeeded", bad)
		}
	}
}

func TestWriterRejectsMisorderedInput(t *testing.T) {
	cases := []struct {
		name string
		adds []entry
	}{
		{"key descending", []entry{{[]byte("b"), 1, base.KindSet, nil}, {[]byte("a"), 1, base.KindSet, nil}}},
		{"seq ascending", []entry{{[]byte("a"), 1, base.KindSet, nil}, {[]byte("a"), 2, base.KindSet, nil}}},
		{"duplicate", []entry{{[]byte("a"), 1, base.KindSet, nil}, {[]byte("a"), 1, base.KindDelete, nil}}},
		{"bad kind", []entry{{[]byte("a"), 1, base.Kind(9), nil}}},
		{"seq too large", []entry{{[]byte("a"), base.MaxSeq + 1, base.KindSet, nil}}},
	}
	for _, tc := range cases {
		w := NewWriter(&bytes.Buffer{}, WriterOptions{})
		var err error
		for _, e := range tc.adds {
			if err = w.Add(e.key, e.seq, e.kind, e.value); err != nil {
				break
			}
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterReportsWriteErrors(t *testing.T) {
	w := NewWriter(failingWriter{}, WriterOptions{})
	if err := w.Add([]byte("a"), 1, base.KindSet, []byte("v")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Finish(); err == nil || !bytes.Contains([]byte(err.Error()), []byte("disk full")) {
		t.Fatalf("Finish error %v, want the write error", err)
	}
}

// TestCompressionShrinksBlocks checks that each algorithm really compresses
// compressible data blocks and leaves incompressible ones raw.
func TestCompressionShrinksBlocks(t *testing.T) {
	var compressible, random []entry
	x := uint64(1)
	for i := range 2000 {
		v := bytes.Repeat([]byte{byte('a' + i%5)}, 100)
		compressible = append(compressible, entry{fmt.Appendf(nil, "k%06d", i), 0, base.KindSet, v})
		r := make([]byte, 100)
		for j := range r {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			r[j] = byte(x)
		}
		random = append(random, entry{fmt.Appendf(nil, "k%06d", i), 0, base.KindSet, r})
	}
	size := func(es []entry, c Compression) int {
		return len(buildTable(t, es, WriterOptions{Compression: c}))
	}
	plain, plainRandom := size(compressible, CompressionNone), size(random, CompressionNone)
	for _, c := range []Compression{CompressionSnappy, CompressionLZ4, CompressionZstd} {
		if got := size(compressible, c); got > plain/3 {
			t.Errorf("%v: compressible table is %d bytes, uncompressed %d", c, got, plain)
		}
		// Random values stay raw (at most 12.5% saved is not worth it);
		// only key blocks may shrink.
		if got := size(random, c); got < plainRandom*8/10 || got > plainRandom {
			t.Errorf("%v: random table is %d bytes, uncompressed %d", c, got, plainRandom)
		}
	}
}

// TestCacheEvictsWithinBudget fills a small cache far past its capacity
// and checks the budget, hits, and that pinned blocks survive eviction.
func TestCacheEvictsWithinBudget(t *testing.T) {
	c := NewCache(4*slabSize, 0)
	pinned, data, ok := c.reserve(1, 0, 1000)
	if !ok {
		t.Fatal("reserve failed on an empty cache")
	}
	copy(data, bytes.Repeat([]byte{0xAB}, 1000))
	var pinnedHint, lastHint atomic.Int32
	c.publish(pinned, &pinnedHint)
	for i := range uint64(5000) {
		h, b, ok := c.reserve(2, i*4096, 3000+int(i%500))
		if !ok {
			continue
		}
		b[0] = byte(i)
		hint := new(atomic.Int32)
		if i == 4999 {
			hint = &lastHint
		}
		c.publish(h, hint)
		h.release()
		if u := c.Usage(); u > c.Capacity() {
			t.Fatalf("usage %d above capacity %d", u, c.Capacity())
		}
	}
	h, b, ok := c.lookup(1, 0, &pinnedHint)
	if !ok || !bytes.Equal(b, bytes.Repeat([]byte{0xAB}, 1000)) {
		t.Fatal("pinned block was evicted or overwritten")
	}
	h.release()
	pinned.release()
	h, b, ok = c.lookup(2, 4999*4096, &lastHint)
	if !ok || b[0] != byte(4999%256) || len(b) != 3000+4999%500 {
		t.Fatal("most recent block missing")
	}
	h.release()
	if _, _, ok := c.lookup(2, 4999*4096, new(atomic.Int32)); ok {
		t.Fatal("a lookup without a hint found a block")
	}
	if NewCache(0, -1) != nil {
		t.Fatal("zero capacity must give a nil cache")
	}
	var nilCache *Cache
	if nilCache.Usage() != 0 || nilCache.Capacity() != 0 {
		t.Fatal("nil cache reports usage")
	}
}

// TestKeyBlockMutations damages every byte of a valid key block in turn
// (past the checksum, as a writer bug would) and walks it every way: the
// iterator must stop with errBadBlock or yield entries, never panic.
func TestKeyBlockMutations(t *testing.T) {
	var b keyBlockWriter
	b.interval = 3
	for i := range 20 {
		b.add(fmt.Appendf(nil, "key-%03d", i/2), base.MakeTrailer(uint64(100-i), base.KindSet), fmt.Appendf(nil, "v%d", i))
	}
	good := bytes.Clone(b.finishKeys())
	errs := 0
	for pos := range good {
		for _, v := range []byte{0x00, 0xff, 0x80, good[pos] ^ 1, good[pos] + 7} {
			bad := bytes.Clone(good)
			bad[pos] = v
			var it blockIter
			if it.init(bad) != nil {
				errs++
				continue
			}
			for ok := it.first(); ok; ok = it.next() {
			}
			for ok := it.last(); ok; ok = it.prev() {
			}
			it.seekGE([]byte("key-005"))
			if it.err != nil {
				errs++
			}
		}
	}
	if errs == 0 {
		t.Fatal("no mutation was detected as malformed")
	}
}

func TestEstimatedSizeGrows(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, WriterOptions{BlockSize: 256})
	last := w.EstimatedSize()
	for i := range 1000 {
		if err := w.Add(fmt.Appendf(nil, "k%05d", i), 0, base.KindSet, bytes.Repeat([]byte("v"), 50)); err != nil {
			t.Fatal(err)
		}
		if s := w.EstimatedSize(); s < last {
			t.Fatalf("EstimatedSize went down from %d to %d", last, s)
		} else {
			last = s
		}
	}
	p, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if last > p.FileSize || last < p.DataSize*9/10 {
		t.Fatalf("final estimate %d, data %d, file %d", last, p.DataSize, p.FileSize)
	}
	if uint64(buf.Len()) != p.FileSize {
		t.Fatalf("wrote %d bytes, FileSize says %d", buf.Len(), p.FileSize)
	}
}

// TestCachePublishRepointsHint inserts one block twice, as two Readers of
// the same file do: the second insert loses, and its hint must then name
// the slot holding the block, or that Reader would never find it.
func TestCachePublishRepointsHint(t *testing.T) {
	c := NewCache(4*slabSize, 0)
	var first, second atomic.Int32
	insert := func(mark byte, hint *atomic.Int32) {
		h, b, ok := c.reserve(7, 0, 1000)
		if !ok {
			t.Fatal("reserve failed")
		}
		b[0] = mark
		c.publish(h, hint)
		h.release()
	}
	insert(1, &first)
	insert(2, &second)
	if first.Load() != second.Load() {
		t.Fatalf("hints %d and %d: the losing insert's hint does not name the cached slot", first.Load(), second.Load())
	}
	h, b, ok := c.lookup(7, 0, &second)
	if !ok || b[0] != 1 {
		t.Fatalf("lookup through the repointed hint: ok %v", ok)
	}
	h.release()
}
