package sst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden tables under testdata/")

// goldenTables are small tables whose exact bytes are pinned under
// testdata/, so that any change to the format is deliberate.
var goldenTables = []struct {
	file    string
	opts    WriterOptions
	entries func() []entry
}{
	{"example.sst", WriterOptions{BlockRestartInterval: 2}, func() []entry {
		return []entry{
			{[]byte("apple"), 7, base.KindSet, []byte("red")},
			{[]byte("apple"), 5, base.KindDelete, nil},
			{[]byte("apricot"), 9, base.KindSet, []byte("orange")},
		}
	}},
	{"bloom_multiblock.sst", WriterOptions{BlockSize: 128, BlockRestartInterval: 4, BloomBitsPerKey: 10}, multiblockEntries},
	// One table per checksum type other than the default.
	{"checksum_none.sst", WriterOptions{BlockSize: 128, Checksum: ChecksumNone}, multiblockEntries},
	{"checksum_xxhash.sst", WriterOptions{BlockSize: 128, Checksum: ChecksumXXHash}, multiblockEntries},
	{"checksum_xxhash64.sst", WriterOptions{BlockSize: 128, Checksum: ChecksumXXHash64}, multiblockEntries},
	{"checksum_xxh3.sst", WriterOptions{BlockSize: 128, Checksum: ChecksumXXH3}, multiblockEntries},
	{"index_snappy.sst", WriterOptions{BlockSize: 64, Compression: CompressionSnappy, CompressIndex: true}, multiblockEntries},
	// Format version 3: partitioned index and filters.
	{"partitioned.sst", WriterOptions{BlockSize: 128, BlockRestartInterval: 4, BloomBitsPerKey: 10,
		PartitionIndex: true, PartitionFilters: true, MetadataBlockSize: 32}, multiblockEntries},
	{"partitioned_example.sst", WriterOptions{BlockSize: 1, PartitionIndex: true, MetadataBlockSize: 1}, func() []entry {
		return []entry{
			{[]byte("apple"), 7, base.KindSet, []byte("red")},
			{[]byte("apricot"), 9, base.KindSet, []byte("orange")},
		}
	}},
}

// multiblockEntries are 40 keys that fill several 128-byte blocks.
func multiblockEntries() []entry {
	var es []entry
	for i := range 40 {
		es = append(es, entry{fmt.Appendf(nil, "user%04d", i*7), uint64(1000 - i), base.KindSet, fmt.Appendf(nil, "value-%d", i)})
	}
	return es
}

func buildTable(t testing.TB, es []entry, opts WriterOptions) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf, opts)
	for _, e := range es {
		if err := w.Add(e.key, e.seq, e.kind, e.value); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGoldenTable(t *testing.T) {
	for _, g := range goldenTables {
		got := buildTable(t, g.entries(), g.opts)
		path := filepath.Join("testdata", g.file)
		if *updateGolden {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the writer's bytes differ from the golden table; if the format change is deliberate, bump FormatVersion and run go test -run TestGoldenTable -update", g.file)
		}
		// The pinned bytes must also read back as the entries.
		r := openTable(t, path, ReaderOptions{})
		checkScan(t, r, g.entries())
		r.Close()
	}
}

// TestCorruptionDetected flips one bit of every byte of small tables, one
// byte at a time, and requires an error wrapping ErrCorruption from Open or from a read:
// never a panic and never different data.
func TestCorruptionDetected(t *testing.T) {
	dir := t.TempDir()
	for ci, comp := range []Compression{CompressionNone, CompressionSnappy, CompressionZstd, CompressionLZ4} {
		es := goldenTables[1].entries()
		opts := goldenTables[1].opts
		opts.Compression = comp
		opts.CompressKeyBlocks = true // the damaged key block is the compressed one
		good := buildTable(t, es, opts)
		for _, mmap := range []bool{ci%2 == 0} {
			for pos := range good {
				for _, bit := range []int{(pos + ci) % 8} {
					bad := bytes.Clone(good)
					bad[pos] ^= 1 << bit
					path := filepath.Join(dir, "bad.sst")
					if err := os.WriteFile(path, bad, 0o644); err != nil {
						t.Fatal(err)
					}
					err := readWholeTable(path, mmap, es)
					if err == nil {
						t.Fatalf("%v mmap=%v: flipping bit %d of byte %d went unnoticed", comp, mmap, bit, pos)
					}
					if !errors.Is(err, ErrCorruption) {
						t.Fatalf("%v: byte %d: error %v does not wrap ErrCorruption", comp, pos, err)
					}
				}
			}
		}
	}
}

// errWrongData reports bytes that decoded into other entries than written.
var errWrongData = errors.New("wrong data")

// readWholeTable opens a table, scans it with values and gets every key,
// comparing with es; it returns the first error.
func readWholeTable(path string, mmap bool, es []entry) error {
	return readWholeTableWith(path, ReaderOptions{Mmap: mmap, Cache: NewCache(1<<20, 0)}, es)
}

// readWholeTableWith is readWholeTable with the given reader options.
func readWholeTableWith(path string, opts ReaderOptions, es []entry) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	st, _ := f.Stat()
	r, err := Open(f, st.Size(), opts)
	if err != nil {
		return err
	}
	defer r.Close()
	it := r.NewIter()
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.Value()
		if err != nil {
			return err
		}
		if i >= len(es) || !bytes.Equal(it.Key(), es[i].key) || it.Seq() != es[i].seq || !bytes.Equal(v, es[i].value) {
			return fmt.Errorf("%w at entry %d", errWrongData, i)
		}
		i++
	}
	if err := it.Close(); err != nil {
		return err
	}
	for _, e := range es {
		if _, err := r.Get(e.key, base.MaxSeq, func([]byte, base.Kind, uint64) {}); err != nil {
			return err
		}
	}
	if i != len(es) {
		return fmt.Errorf("%w: scan saw %d of %d entries", errWrongData, i, len(es))
	}
	return nil
}

// TestDamageBehindValidChecksum damages the first key block of compressed
// tables and recomputes its checksum, as a writer bug or a collision would:
// decoding must fail cleanly with ErrCorruption or, where the damaged bytes
// still decode (a changed key byte), give other data, never panic.
func TestDamageBehindValidChecksum(t *testing.T) {
	dir := t.TempDir()
	es := goldenTables[1].entries()
	for _, comp := range []Compression{CompressionSnappy, CompressionLZ4, CompressionZstd, CompressionNone} {
		opts := goldenTables[1].opts
		opts.Compression = comp
		good := buildTable(t, es, opts)
		path := filepath.Join(dir, "good.sst")
		if err := os.WriteFile(path, good, 0o644); err != nil {
			t.Fatal(err)
		}
		r := openTable(t, path, ReaderOptions{})
		first := r.blocks.at(0)
		r.Close()
		detected := 0
		for pos := 0; pos < int(first.keyLen); pos++ {
			bad := bytes.Clone(good)
			bad[pos] ^= 0x5a
			binary.LittleEndian.PutUint32(bad[first.keyLen+1:], ChecksumCRC32C.sum(bad[:first.keyLen+1]))
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, mmap := range []bool{false, true} {
				err := readWholeTable(path, mmap, es)
				if err != nil && !errors.Is(err, ErrCorruption) && !errors.Is(err, errWrongData) {
					t.Fatalf("%v byte %d: error %v does not wrap ErrCorruption", comp, pos, err)
				}
				if errors.Is(err, ErrCorruption) {
					detected++
				}
			}
		}
		if detected == 0 {
			t.Errorf("%v: no damage detected", comp)
		}
	}
}

// TestDocExampleMatchesGolden checks the hex dumps in the package doc
// against testdata/example.sst and the golden tables later examples name, so the documentation cannot drift from the
// format.
func TestDocExampleMatchesGolden(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "example.sst"))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, line := range strings.Split(string(doc), "\n") {
		// A later example names its golden table.
		if _, rest, ok := strings.Cut(line, "testdata/"); ok && strings.HasPrefix(line, "// ") {
			name := strings.FieldsFunc(rest, func(c rune) bool { return strings.ContainsRune(" ;),", c) })[0]
			if golden, err = os.ReadFile(filepath.Join("testdata", name)); err != nil {
				t.Fatal(err)
			}
		}
		rest, ok := strings.CutPrefix(line, "//\t")
		if !ok || len(rest) < 6 || rest[4:6] != "  " {
			continue
		}
		off, err := strconv.ParseUint(rest[:4], 16, 32)
		if err != nil {
			continue
		}
		lines++
		for _, tok := range strings.Fields(rest[6:]) {
			v, err := strconv.ParseUint(tok, 16, 8)
			if err != nil || len(tok) != 2 {
				break
			}
			if off >= uint64(len(golden)) || golden[off] != byte(v) {
				t.Fatalf("doc example: byte at %#x is %s, golden has %#02x", off, tok, golden[min(off, uint64(len(golden)-1))])
			}
			off++
		}
	}
	if lines < 10 {
		t.Fatalf("found only %d example lines in doc.go", lines)
	}
}
