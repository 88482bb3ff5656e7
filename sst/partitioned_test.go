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
	"github.com/godbbench/godbbench/internal/statistics"
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
		lazy := mode.cache > 0 && round%4 != 3
		t.Run(fmt.Sprintf("%d/n=%d/filters=%v/%s/lazy=%v", round, n, filters, mode.name, lazy), func(t *testing.T) {
			r := openTable(t, path, ReaderOptions{Mmap: mode.mmap, Cache: NewCache(mode.cache, -1), FileNum: uint64(round), CacheIndexAndFilterBlocks: lazy})
			defer r.Close()
			if (r.lazy != nil) != lazy || lazy && r.seps != nil {
				t.Fatalf("lazy %v: reader keeps lazy partitions %v, separators %d bytes", lazy, r.lazy != nil, len(r.seps))
			}
			p := r.Properties()
			if p.FormatVersion != formatVersionPartitioned || p.IndexSize != props.IndexSize || p.FilterSize != props.FilterSize {
				t.Fatalf("properties read %+v, written %+v", *p, props)
			}
			if r.blocks.len() >= 40 && len(r.partEnd) < 2 {
				t.Fatalf("%d blocks in %d index partitions", r.blocks.len(), len(r.partEnd))
			}
			if r.partitionedFilter() != filters {
				t.Fatalf("partitioned filter %v, want %v", r.partitionedFilter(), filters)
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
// partitioned tables, read with the partitions in the Reader or in the
// cache: Open or a read must fail with ErrCorruption, never give other
// data or panic.
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
			// Every third read loads the partitions through the cache.
			ro := ReaderOptions{Mmap: pos%2 == 0, Cache: NewCache(1<<20, 0), CacheIndexAndFilterBlocks: pos%3 == 0}
			err := readWholeTableWith(path, ro, es)
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

// TestPartitionsGoThroughCache: with CacheIndexAndFilterBlocks the index
// and filter partitions are read into the block cache, counted in
// RocksDB's index and filter tickers, found there again, and read anew
// once evicted; a damaged filter partition is an ErrCorruption error from
// Get, the Reader having opened without reading it.
func TestPartitionsGoThroughCache(t *testing.T) {
	dir := t.TempDir()
	var es []entry
	for i := range 5000 {
		es = append(es, entry{fmt.Appendf(nil, "key%08d", i), 1, base.KindSet, []byte("value")})
	}
	opts := WriterOptions{BloomBitsPerKey: 10, PartitionIndex: true, PartitionFilters: true, MetadataBlockSize: 64}
	path, _ := writeTable(t, dir, es, opts)
	stats := statistics.New(statistics.ExceptTimers)
	cache := NewCache(1<<20, 0)
	r := openTable(t, path, ReaderOptions{Cache: cache, CacheIndexAndFilterBlocks: true, Statistics: stats})
	get := func(key []byte) bool {
		found, err := r.Get(key, base.MaxSeq, func([]byte, base.Kind, uint64) {})
		if err != nil {
			t.Fatal(err)
		}
		return found
	}
	for round := range 2 {
		for _, e := range es {
			if !get(e.key) {
				t.Fatalf("round %d: %q not found", round, e.key)
			}
		}
	}
	parts := uint64(len(r.partEnd))
	if parts < 4 {
		t.Fatalf("%d partitions, want several", parts)
	}
	for _, c := range []struct {
		ticker statistics.Ticker
		want   uint64
	}{
		{statistics.BlockCacheIndexAdd, parts}, {statistics.BlockCacheFilterAdd, parts},
		{statistics.BlockCacheIndexMiss, parts}, {statistics.BlockCacheFilterMiss, parts},
		{statistics.BlockCacheIndexHit, 2*uint64(len(es)) - parts}, {statistics.BlockCacheFilterHit, 2*uint64(len(es)) - parts},
	} {
		if got := stats.Ticker(c.ticker); got != c.want {
			t.Errorf("%v = %d, want %d", c.ticker, got, c.want)
		}
	}
	r.Close()

	// Damage the last filter partition's first line, behind a valid footer.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pr := openTable(t, path, ReaderOptions{Cache: NewCache(1<<20, 0), CacheIndexAndFilterBlocks: true})
	h := pr.lazy.filter[len(pr.lazy.filter)-1]
	pr.Close()
	b[h.Offset] ^= 0x10
	bad := writeTemp(t, dir, b)
	r = openTable(t, bad, ReaderOptions{Cache: NewCache(1<<20, 0), CacheIndexAndFilterBlocks: true})
	defer r.Close()
	if !get(es[0].key) {
		t.Fatal("a key of an undamaged partition was not found")
	}
	if _, err := r.Get(es[len(es)-1].key, base.MaxSeq, func([]byte, base.Kind, uint64) {}); !errors.Is(err, ErrCorruption) {
		t.Fatalf("Get through a damaged filter partition: %v, want ErrCorruption", err)
	}
}

// TestPartitionedGetAllocs: once the partitions and blocks are cached, Get
// and SeekGE on a Reader whose partitions go through the cache allocate
// nothing, as on any other Reader.
func TestPartitionedGetAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var es []entry
	for i := range 3000 {
		es = append(es, entry{fmt.Appendf(nil, "key%08d", i), 1, base.KindSet, []byte("value")})
	}
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BloomBitsPerKey: 10, PartitionIndex: true, PartitionFilters: true, MetadataBlockSize: 64})
	r := openTable(t, path, ReaderOptions{Cache: NewCache(1<<20, 0), CacheIndexAndFilterBlocks: true})
	defer r.Close()
	it := r.NewIter()
	defer it.Close()
	fn := func([]byte, base.Kind, uint64) {}
	hit, miss := es[1234].key, []byte("key00001234x")
	run := func() {
		r.Get(hit, base.MaxSeq, fn)
		r.Get(miss, base.MaxSeq, fn)
		it.SeekGE(miss)
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Fatalf("%v allocations per Get, Get, SeekGE", n)
	}
}

// TestIterStaysFailedAfterSeekError: a seek whose index partition is
// damaged after the Reader opened (read lazily, through the cache) fails
// with ErrCorruption, and
// the iterator stays invalid with that error through Next and Prev, which
// do not restart it at First or Last, until a positioning that succeeds.
func TestIterStaysFailedAfterSeekError(t *testing.T) {
	dir := t.TempDir()
	var es []entry
	for i := range 5000 {
		es = append(es, entry{fmt.Appendf(nil, "key%08d", i), 1, base.KindSet, []byte("value")})
	}
	path, _ := writeTable(t, dir, es, WriterOptions{PartitionIndex: true, MetadataBlockSize: 64})
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := openTable(t, path, ReaderOptions{Cache: NewCache(1<<20, 0), CacheIndexAndFilterBlocks: true})
	defer r.Close()
	if len(r.lazy.index) < 3 {
		t.Fatalf("%d index partitions, want several", len(r.lazy.index))
	}
	// Open checked every partition; the damage comes after, and the first
	// seek into the partition reads it.
	b[r.lazy.index[len(r.lazy.index)/2].Offset] ^= 0x10
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// A key whose seek reads the damaged partition.
	var last []byte
	for _, e := range es {
		it := r.NewIter()
		if !it.SeekGE(e.key) && it.Error() != nil {
			last = e.key
		}
		it.Close()
		if last != nil {
			break
		}
	}
	if last == nil {
		t.Fatal("no seek reads the damaged index partition")
	}
	for _, c := range []struct {
		name string
		seek func(*Iter) bool
		step func(*Iter) bool
	}{
		{"SeekGE then Next", func(it *Iter) bool { return it.SeekGE(last) }, (*Iter).Next},
		{"SeekLT then Prev", func(it *Iter) bool { return it.SeekLT(last) }, (*Iter).Prev},
		{"SeekGE then Prev", func(it *Iter) bool { return it.SeekGE(last) }, (*Iter).Prev},
	} {
		it := r.NewIter()
		if c.seek(it) || !errors.Is(it.Error(), ErrCorruption) {
			t.Fatalf("%s: seek through the damaged partition: valid %v, error %v", c.name, it.Valid(), it.Error())
		}
		for i := range 3 {
			if c.step(it) || it.Valid() || !errors.Is(it.Error(), ErrCorruption) {
				t.Fatalf("%s: step %d after the failed seek: valid %v, error %v", c.name, i, it.Valid(), it.Error())
			}
		}
		if !it.First() || !bytes.Equal(it.Key(), es[0].key) || it.Error() != nil {
			t.Fatalf("%s: First after the failure: key %q, error %v", c.name, it.Key(), it.Error())
		}
		it.Close()
	}
}
