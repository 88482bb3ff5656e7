package sst

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// partitionedOptions are the options of the partitioned round trips: small
// blocks and partitions so that a few thousand entries make many of both.
func partitionedOptions(rng *rand.Rand, filters bool) WriterOptions {
	return WriterOptions{
		BlockSize:            []int{64, 512, 4096}[rng.IntN(3)],
		BlockRestartInterval: []int{1, 16}[rng.IntN(2)],
		BloomBitsPerKey:      10,
		Compression:          []Compression{CompressionNone, CompressionSnappy}[rng.IntN(2)],
		CompressIndex:        rng.IntN(2) == 0,
		PartitionIndex:       true,
		PartitionFilters:     filters,
		MetadataBlockSize:    []int{1, 64, 256}[rng.IntN(3)],
	}
}

// TestPartitionedRoundTrip reads partitioned tables every way an
// unpartitioned one is read, and checks that partitioning changes the
// index and filter blocks only: the data blocks, hence the approximate
// offsets, are those of the same table written unpartitioned.
func TestPartitionedRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 10 {
		filters := round%2 == 0
		wo := partitionedOptions(rng, filters)
		n := []int{0, 1, 300, 3000}[min(round, 3)]
		es := randomEntries(rng, n, []int{0, 10, 200}[rng.IntN(3)])
		path, props := writeTable(t, dir, es, wo)
		plain := wo
		plain.PartitionIndex, plain.PartitionFilters = false, false
		plainPath, _ := writeTable(t, dir, es, plain)
		mode := readModes[round%len(readModes)]
		t.Run(fmt.Sprintf("%d/n=%d/filters=%v/%s", round, n, filters, mode.name), func(t *testing.T) {
			r := openTable(t, path, ReaderOptions{Mmap: mode.mmap, Cache: NewCache(mode.cache, -1), FileNum: uint64(round)})
			defer r.Close()
			p := r.Properties()
			if p.FormatVersion != formatVersionPartitioned || p.IndexSize != props.IndexSize || p.FilterSize != props.FilterSize {
				t.Fatalf("properties read %+v, written %+v", *p, props)
			}
			if len(r.blocks) >= 40 && len(r.partEnd) < 2 {
				t.Fatalf("%d blocks in %d index partitions", len(r.blocks), len(r.partEnd))
			}
			if (r.filterParts != nil) != filters || (filters && len(r.filterParts) != len(r.partEnd)) {
				t.Fatalf("%d filter partitions for %d index partitions, want filters %v", len(r.filterParts), len(r.partEnd), filters)
			}
			checkScan(t, r, es)
			checkSeeks(t, rng, r, es)
			checkGets(t, rng, r, es)
			if err := r.VerifyBlocks(); err != nil {
				t.Fatal(err)
			}
			pr := openTable(t, plainPath, ReaderOptions{})
			defer pr.Close()
			for range 200 {
				key := fmt.Appendf(nil, "key%08d", rng.IntN(n*4+1))
				if got, want := r.ApproximateOffsetOf(key), pr.ApproximateOffsetOf(key); got != want {
					t.Fatalf("ApproximateOffsetOf(%q) = %d, unpartitioned %d", key, got, want)
				}
			}
		})
	}
}

// TestPartitionedFilterRate checks that partitioned filters admit every
// present key and rule out most absent ones, as the whole filter does.
func TestPartitionedFilterRate(t *testing.T) {
	dir := t.TempDir()
	var es []entry
	for i := range 20000 {
		es = append(es, entry{fmt.Appendf(nil, "key%08d", 2*i), 1, base.KindSet, []byte("v")})
	}
	path, _ := writeTable(t, dir, es, WriterOptions{BloomBitsPerKey: 10, BlockSize: 512, PartitionIndex: true, PartitionFilters: true, MetadataBlockSize: 256})
	r := openTable(t, path, ReaderOptions{})
	defer r.Close()
	if len(r.filterParts) < 4 {
		t.Fatalf("%d filter partitions, want several", len(r.filterParts))
	}
	for _, e := range es {
		if !r.MayContain(e.key) {
			t.Fatalf("MayContain(%q) false for a present key", e.key)
		}
	}
	admitted := 0
	for i := range 20000 {
		key := fmt.Appendf(nil, "key%08d", 2*i+1)
		found, err := r.Get(key, base.MaxSeq, func([]byte, base.Kind, uint64) {})
		if err != nil || found {
			t.Fatalf("Get(%q) = %v, %v for an absent key", key, found, err)
		}
		if r.MayContain(key) {
			admitted++
		}
	}
	if admitted > 20000*3/100 {
		t.Fatalf("partitioned filters admit %d of 20000 absent keys", admitted)
	}
}

// TestPartitionedPrefixFilter checks prefix probes over partitioned
// filters: a prefix whose keys span several partitions is found from any
// of them, and most absent prefixes are ruled out.
func TestPartitionedPrefixFilter(t *testing.T) {
	dir := t.TempDir()
	var es []entry
	for p := range 300 {
		for k := range 1 + p%40 {
			es = append(es, entry{fmt.Appendf(nil, "p%05d-%04d", 2*p, k), 1, base.KindSet, []byte("value")})
		}
	}
	for _, prefixOnly := range []bool{false, true} {
		path, _ := writeTable(t, dir, es, WriterOptions{BlockSize: 256, BloomBitsPerKey: 10, FilterPrefixLen: 6,
			PrefixOnlyFilter: prefixOnly, PartitionIndex: true, PartitionFilters: true, MetadataBlockSize: 64})
		r := openTable(t, path, ReaderOptions{})
		if len(r.filterParts) < 10 {
			t.Fatalf("%d filter partitions, want many", len(r.filterParts))
		}
		for _, e := range es {
			if !r.MayContainPrefix(e.key[:6]) {
				t.Fatalf("MayContainPrefix(%q) false for a present prefix", e.key[:6])
			}
			found, err := r.Get(e.key, base.MaxSeq, func([]byte, base.Kind, uint64) {})
			if err != nil || !found {
				t.Fatalf("Get(%q) = %v, %v", e.key, found, err)
			}
		}
		admitted := 0
		for p := range 300 {
			if r.MayContainPrefix(fmt.Appendf(nil, "p%05d", 2*p+1)) {
				admitted++
			}
		}
		if admitted > 30 {
			t.Fatalf("prefix-only %v: %d of 300 absent prefixes admitted", prefixOnly, admitted)
		}
		r.Close()
	}
}

// TestPartitionedCorruptionDetected flips a bit in every byte of small
// partitioned tables: Open or a read must fail with ErrCorruption, never
// give other data or panic.
func TestPartitionedCorruptionDetected(t *testing.T) {
	dir := t.TempDir()
	es := multiblockEntries()
	for ci, opts := range []WriterOptions{
		{BlockSize: 128, BloomBitsPerKey: 10, PartitionIndex: true, PartitionFilters: true, MetadataBlockSize: 32},
		{BlockSize: 128, Compression: CompressionSnappy, CompressIndex: true, PartitionIndex: true, MetadataBlockSize: 16},
	} {
		good := buildTable(t, es, opts)
		for pos := range good {
			bad := bytes.Clone(good)
			bad[pos] ^= 1 << ((pos + ci) % 8)
			path := filepath.Join(dir, "bad.sst")
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			err := readWholeTable(path, pos%2 == 0, es)
			if err == nil {
				t.Fatalf("options %d: flipping a bit of byte %d went unnoticed", ci, pos)
			}
			if !errors.Is(err, ErrCorruption) {
				t.Fatalf("options %d: byte %d: error %v does not wrap ErrCorruption", ci, pos, err)
			}
		}
	}
}

// TestPartitionedOptionFallbacks: partitioned filters need a partitioned
// index and a filter, as in RocksDB; format version 1 has no partitions.
func TestPartitionedOptionFallbacks(t *testing.T) {
	es := multiblockEntries()
	for _, opts := range []WriterOptions{
		{BloomBitsPerKey: 10, PartitionFilters: true},
		{PartitionIndex: true, PartitionFilters: true},
	} {
		dir := t.TempDir()
		path, props := writeTable(t, dir, es, opts)
		r := openTable(t, path, ReaderOptions{})
		if r.filterParts != nil || props.FormatVersion != map[bool]uint32{false: FormatVersion, true: formatVersionPartitioned}[opts.PartitionIndex] {
			t.Fatalf("%+v: version %d, %d filter partitions", opts, props.FormatVersion, len(r.filterParts))
		}
		r.Close()
	}
	w := NewWriter(&bytes.Buffer{}, WriterOptions{FormatVersion: formatVersion1, PartitionIndex: true})
	if err := w.Add([]byte("a"), 1, base.KindSet, nil); err == nil {
		t.Fatal("format version 1 accepted a partitioned index")
	}
}
