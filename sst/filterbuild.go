package sst

import (
	"github.com/godbbench/godbbench/internal/bloom"
)

// A table's filter (one block, or with PartitionFilters one per index
// partition) needs its line count before its first bit is set, and the
// line count follows from the number of keys, which a writer knows only at
// the end. So a writer keeps the 64-bit hash of every key and builds the
// filter at the end (buildBloom): 8 bytes a key, where the filter itself
// takes 1.25 at 10 bits per key.
//
// A writer told how many keys to expect (WriterOptions.ExpectedKeys, a
// flush's count of memtable entries) keeps hashes only for its first
// directFilterMin keys. At the next it sizes the filter for the expected
// count and from then on sets each key's bits as the key arrives: a flush
// of a 64 MiB memtable of deletes (1.6 million keys) holds 2 MiB of filter
// instead of 12.8 MiB of hashes, at the moment memory peaks (the flushed
// memtable and the one filling are both resident). A table of up to
// directFilterMin keys, and any table whose writer was told its exact key
// count, gets the filter it would have got without the hint, byte for
// byte (bloom.Add); a table told more keys than it holds (a memtable with
// several entries of a key) gets more lines than its keys need, so a
// lower false-positive rate, never a false negative. A filter of key
// prefixes (FilterPrefixLen) can hold up to two hashes a key and is
// always built at the end.

// directFilterMin is how many keys' hashes a writer with ExpectedKeys
// keeps before it builds its filter directly (512 KiB of hashes).
const directFilterMin = 1 << 16

// filterBuilder collects a filter's keys: their hashes, or once direct is
// set, their bits.
type filterBuilder struct {
	// hashes are the hashes of the keys added (of the current partition's
	// keys with PartitionFilters), until direct is set.
	hashes []uint64
	// direct is the filter's lines, Lines(expected) of them, once built
	// directly; nil before.
	direct []byte
	// expected is the key count the direct filter is sized for; 0 when the
	// filter is built at the end whatever the count.
	expected   int
	bitsPerKey int
	probes     int
}

// init readies b for a table of about expectedKeys keys (0: unknown) at
// bitsPerKey; direct says whether the filter may be built as keys arrive.
func (b *filterBuilder) init(bitsPerKey, expectedKeys int, direct bool) {
	b.bitsPerKey = bitsPerKey
	b.probes = bloom.ProbesFor(bitsPerKey, bloom.Multiply32)
	if expectedKeys <= 0 {
		return
	}
	if direct && expectedKeys > directFilterMin {
		b.expected = expectedKeys
		b.hashes = make([]uint64, 0, directFilterMin)
		return
	}
	b.hashes = make([]uint64, 0, min(expectedKeys, maxExpectedKeys))
}

// add adds the key with hash h.
func (b *filterBuilder) add(h uint64) {
	if b.direct != nil {
		bloom.Add(b.direct, uint64(len(b.direct)/bloom.LineBytes), h, b.probes, bloom.Multiply32)
		return
	}
	b.hashes = append(b.hashes, h)
	if b.expected > 0 && len(b.hashes) == directFilterMin {
		b.goDirect()
	}
}

// goDirect sizes the filter for the expected keys, sets the bits of the
// hashes kept so far and drops them.
func (b *filterBuilder) goDirect() {
	lines := bloom.Lines(b.expected, b.bitsPerKey)
	b.direct = make([]byte, lines*bloom.LineBytes, lines*bloom.LineBytes+bloomTrailerLen)
	for _, h := range b.hashes {
		bloom.Add(b.direct, uint64(lines), h, b.probes, bloom.Multiply32)
	}
	b.hashes = nil
}

// block returns the filter block over the keys added.
func (b *filterBuilder) block() []byte {
	if b.direct == nil {
		return buildBloom(nil, b.hashes, b.bitsPerKey)
	}
	return appendBloomTrailer(b.direct, len(b.direct)/bloom.LineBytes, b.probes)
}

// cut returns the filter block over the keys added since the last cut and
// starts the next partition's. A partitioned filter is never direct.
func (b *filterBuilder) cut() []byte {
	f := buildBloom(nil, b.hashes, b.bitsPerKey)
	b.hashes = b.hashes[:0]
	return f
}
