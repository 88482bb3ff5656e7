// Package sst implements the native table format of the godbbench LSM
// engine: an immutable, sorted file of internal keys (user key, sequence
// number, kind) and values, with a writer, a reader for point lookups and
// bidirectional iteration, a per-table bloom filter and a sharded block
// cache.
//
// # Contract
//
//   - A Writer receives entries in internal-key order (user key ascending
//     bytewise, then sequence number descending) and rejects anything else.
//   - A Reader is safe for concurrent use; an Iter by one goroutine at a time.
//   - Bytes handed out (Get's callback argument, Iter.Key and Iter.Value)
//     stay valid only until the callback returns or the iterator moves.
//   - Damaged bytes produce an error wrapping ErrCorruption that names the
//     file and the offset, never a panic and never wrong data: every block
//     is checked against its checksum before its bytes are used (a mapped
//     block once per Reader, or on every read with VerifyChecksums). A
//     table written with ChecksumNone has no checksums to check: damage
//     inside its blocks is caught only where the bytes fail to decode.
//   - Open refuses a file whose size differs from the recorded one. A mapped
//     file that shrinks later gives ErrCorruption errors from Open and Iter,
//     never SIGBUS; Get's callback sees bytes in place, so its caller guards
//     it with runtime/debug.SetPanicOnFault and internal/mmapfault's Catch
//     (mmap_fault.go).
//   - An Iter that failed stays invalid until it is positioned again.
//   - Get, Iter moves and Value allocate nothing in steady state.
//
// # Format, version 2
//
// All integers are little endian; "uvarint" is the unsigned LEB128 varint
// of encoding/binary. A table is:
//
//	data block pair 0 .. data block pair N-1
//	filter block      (only when written with BloomBitsPerKey > 0)
//	range-deletion block (only for a table given range tombstones)
//	index block
//	properties block
//	footer            (52 bytes)
//
// Every block is followed by a 5-byte trailer: one byte of compression type
// (0 none, 1 snappy, 4 lz4, 7 zstd: RocksDB's CompressionType numbers) and
// a u32 checksum of the stored block bytes followed by that type byte,
// computed by the table's checksum type (footer byte 37, RocksDB's
// ChecksumType numbers and functions, so a trailer holds what RocksDB's
// ComputeBuiltinChecksum gives for the same bytes; checksum.go):
//
//	0 kNoChecksum  0
//	1 kCRC32c      CRC32C (Castagnoli), masked: rotated right 15 bits, plus 0xa282ead8
//	2 kxxHash      XXH32, seed 0
//	3 kxxHash64    low 32 bits of XXH64, seed 0
//	4 kXXH3        low 32 bits of XXH3_64bits of the block bytes without the
//	               type byte, xor type byte × 0x6b9083d9 (mod 2^32)
//
// A block handle's length never includes the trailer.
// Value blocks may be compressed, and so may the key blocks of a table
// written with CompressKeyBlocks and the index block of one written with
// CompressIndex (RocksDB's enable_index_compression); filter,
// range-deletion and properties blocks are always stored raw. A reader
// reads key blocks either way: the trailer's type byte says which. A
// compressed block is: snappy, the snappy block format; lz4, uvarint
// uncompressed length then an LZ4 block; zstd, uvarint uncompressed length
// then one zstd frame. The writer stores a block raw unless compression
// saves at least 1/8 of its bytes.
//
// Data block pair. Entries are cut into pairs of roughly BlockSize
// uncompressed bytes: a key block, its trailer, a value block, its trailer.
// Keeping keys and values apart lets a key-only scan read and decompress
// key blocks alone, and keeps a key block dense (for 16-byte keys and
// 100-byte values it is about 15% of the pair), so scans and seeks touch
// 6x fewer bytes than with values inline. The versions of one user key may
// span pairs.
//
// A key block is a sequence of entries followed by a restart array:
//
//	entry:   uvarint shared<<1|same | uvarint unshared | uvarint value length |
//	         unshared key bytes | uvarint trailer (absent when same is 1)
//	restart: u32 entry offset in the key block | u32 value offset in the value block
//	end:     restart × R | u32 R
//
// shared is the length of the prefix the user key has in common with the
// previous entry's user key; it is 0 at every restart point, which is every
// BlockRestartInterval-th entry (the first entry is one). The trailer is
// RocksDB's internal-key trailer seq<<8 | kind (internal/base.Trailer),
// stored as a uvarint. same is 1 when the trailer
// equals the previous entry's and is then not stored; it is always 0 at a
// restart point. A bottom-level table whose sequence numbers are all zero
// thus stores one trailer byte per restart interval instead of per entry. The value block is the
// values of the entries, back to back in entry order; an entry's value
// starts where the previous one's ends, and at a restart point at the
// offset stored in the restart array, so no value offset is stored per
// entry.
//
// Filter block: a cache-line-blocked bloom filter over the distinct user
// keys of the table: L lines of 64 bytes, then u32 L, then u8 P (probes).
// For a key with hash h (hashKey, 64 bits) the line is
// (h>>32) × L >> 32; with p = uint32(h), each of the P probes tests bit
// p>>23 of the line (bit b is byte b/8, mask 1<<(b%8)) and then multiplies
// p by 0x9E3779B9 (mod 2^32). L = ceil(keys × bits per key / 512), at
// least 1, where keys is the table's distinct user keys, or for a table of
// more than 65,536 of them written with WriterOptions.ExpectedKeys, that
// count (filterbuild.go); P = bits per key × 0.69, clamped to [1, 30].
//
// Index block: uvarint N, then per pair, in order: uvarint separator length,
// separator bytes, uvarint key block offset, uvarint key block length,
// uvarint value block length. The value block starts right after the key
// block's trailer, and pair i+1 right after pair i's value trailer. The
// separator of a pair is a user key >= every key in the pair and < every
// key of the next pair, shortened where possible (between "apple" and
// "banana" it is "b"); it equals the pair's last key when the next pair
// starts with the same user key, and for the last pair.
//
// Range-deletion block: the table's range tombstones, fragmented (disjoint
// ranges, each with the sequences of the tombstones covering it, newest
// first) in the encoding of internal/rangedel's List.Encode: uvarint
// fragment count, then per fragment uvarint start length, start bytes,
// uvarint end length, end bytes, uvarint sequence count and the sequences
// as uvarints. Point entries never have RocksDB's range-deletion kind.
//
// Properties block, uvarints in this order: entries, deletions, raw key
// bytes (user keys plus 8 each), raw value bytes, data bytes, index bytes,
// filter bytes (each of the last three on disk, trailers included),
// smallest seq, largest seq, compression; then the smallest and the largest
// user key, each as uvarint length and bytes; then, only in a table with a
// range-deletion block, three uvarints: the tombstone count (fragments
// times their sequences, at least 1), the block's offset and its length.
// The key and sequence ranges then cover the tombstones too: the smallest
// start, the largest (exclusive) end, and their sequences.
// A table whose filter holds key prefixes (WriterOptions.FilterPrefixLen,
// prefixfilter.go) ends the block with two more uvarints, after the
// range-deletion fields or, without range tombstones, after three zero
// bytes standing for them: the prefix length (at least 1) and 1 when the
// filter holds whole keys too, 0 when it holds prefixes only. Without
// them the filter holds whole keys only. Example: prefix length 8 with
// whole keys, no range tombstones: 00 00 00 08 01. Open reads the
// range-deletion block, checks its checksum and decodes it; a block that
// does not decode or disagrees with the count is ErrCorruption.
//
// Footer, 52 bytes at the end of the file:
//
//	 0  u64 index offset   |  8  u32 index length
//	12  u64 filter offset  | 20  u32 filter length   (both 0 without a filter)
//	24  u64 props offset   | 32  u32 props length
//	36  u8  format version (2)
//	37  u8  checksum type (RocksDB's number, 0..4)
//	38  u16 zero
//	40  u32 CRC32C of bytes 0..39 (plain, whatever the checksum type)
//	44  u64 magic 0x3174737362626467 (the bytes "gdbbsst1")
//
// Version 1, which Open still reads and a Writer writes when asked
// (WriterOptions.FormatVersion 1), differs only here: bytes 36..39 are the
// u32 1, every trailer holds the plain (unmasked) CRC32C, and the index
// block is always raw.
//
// # Example
//
// The entries ("apple", 7, set, "red"), ("apple", 5, delete), ("apricot",
// 9, set, "orange") with BlockRestartInterval 2, no compression or filter
// and the default checksum type (CRC32C) give this 164-byte table (pinned
// by TestGoldenTable):
//
//	0000  00 05 03 61 70 70 6c 65 81 0e    shared 0, unshared 5, value 3, "apple", trailer 7<<8|1 = 0x701
//	000a  0a 00 00 80 0a                   shared 5 (5<<1|0), unshared 0, value 0, trailer 5<<8|0 = 0x500
//	000f  00 07 06 61 70 72 69 63 6f 74 81 12   restart: "apricot", value 6, trailer 0x901
//	001b  00 00 00 00 00 00 00 00          restart 0: entry 0, value 0
//	0023  0f 00 00 00 03 00 00 00          restart 1: entry 0x0f, value 3
//	002b  02 00 00 00                      2 restarts
//	002f  00 16 10 95 09                   trailer: raw, masked CRC32C
//	0034  72 65 64 6f 72 61 6e 67 65       value block "red" "orange"
//	003d  00 5d 3c fa 08                   trailer
//	0042  01 07 61 70 72 69 63 6f 74 00 2f 09   index: 1 pair, separator "apricot", offset 0, key 0x2f, value 9
//	004e  00 70 38 5e eb                   trailer
//	0053  03 01 29 09 42 11 00 05 09 00 05 61 70 70 6c 65 07 61 70 72 69 63 6f 74
//	                                       properties: 3 entries, 1 deletion, 41, 9, 66, 17, 0, seq 5..9, none, "apple", "apricot"
//	006b  00 b4 74 e6 68                   trailer
//	0070  42 00.. 0c 00 00 00  00.. 00 00 00 00  53 00.. 18 00 00 00  02 01 00 00  f9 b5 96 f2  67 64 62 62 73 73 74 31
//	                                       footer: index (0x42, 12), no filter, props (0x53, 24), version 2, CRC32C, CRC, magic
//
// # Format, version 3: partitioned index and filters
//
// A table written with WriterOptions.PartitionIndex (RocksDB's
// kTwoLevelIndexSearch) is version 2 with a two-level index
// (partitioned.go); byte 36 of its footer is 3, and byte 38 is 1 when its
// filter is partitioned too (WriterOptions.PartitionFilters), else 0.
//
// Index partitions. The index entries are cut into partitions: one ends
// after the entry that brings its encoded entries to MetadataBlockSize
// bytes or more, and at the last data block. Each partition is stored as a
// block in exactly the version 2 index block encoding (uvarint entry
// count, then the entries), with its own trailer and checksum, compressed
// under CompressIndex; the data block offsets of partition p+1 continue
// where those of partition p end.
//
// Top-level index, the block the footer's index handle locates (compressed
// under CompressIndex too): uvarint P, then per partition in order:
// uvarint separator length, separator bytes (those of the partition's
// last entry), uvarint partition offset, uvarint partition length (without
// trailer), uvarint entry count of the partition (at least 1). An empty
// table has P = 0.
//
// Filter partitions, written only with a partitioned index and a filter:
// one per index partition, each a filter block as in version 2 (raw, with
// trailer) over the user keys whose first version lies in that
// partition's data blocks; with a prefix filter, also the prefixes of
// those keys, so a prefix whose keys span partitions is in each of them.
// The footer's filter handle then locates the top-level filter index:
// uvarint P (equal to the index's), then per partition uvarint offset and
// uvarint length. In a partitioned table the filter partitions come where
// the filter block comes in version 2, each followed by its top level, and
// so do the index partitions; the properties' index and filter sizes count
// the partitions and the top levels, trailers included.
//
// Example: the entries ("apple", 7, set, "red") and ("apricot", 9, set,
// "orange") with BlockSize 1 (one entry per pair), PartitionIndex and
// MetadataBlockSize 1 (one index entry per partition), no filter, give
// this 210-byte table (pinned by TestGoldenTable as
// testdata/partitioned_example.sst; the data block pairs are those of
// version 2):
//
//	0000  00 05 03 61 70 70 6c 65 81 0e    pair 0: key block "apple", 22 bytes with its restart array
//	001b  72 65 64                         value block "red"
//	0023  00 07 06 61 70 72 69 63 6f 74 81 12   pair 1: key block "apricot", 24 bytes
//	0040  6f 72 61 6e 67 65                value block "orange"
//	004b  01 03 61 70 71 00 16 03          index partition 0: 1 entry, separator "apq", offset 0, key 0x16, value 3
//	0053  00 3c e8 32 df                   trailer
//	0058  01 07 61 70 72 69 63 6f 74 23 18 06   index partition 1: 1 entry, "apricot", offset 0x23, key 0x18, value 6
//	0064  00 20 0e 2d 46                   trailer
//	0069  02 03 61 70 71 4b 08 01          top-level index: 2 partitions; "apq" at 0x4b, 8 bytes, 1 entry;
//	0071  07 61 70 72 69 63 6f 74 58 0c 01 "apricot" at 0x58, 12 bytes, 1 entry
//	007c  00 76 48 90 06                   trailer
//	0081  02 00 1c 09 4b 36 00 07 09 00   properties: 2 entries, 0, 28, 9, data 75, index 54 (13+17+24), no filter, seq 7..9, none, then the keys
//	009e  69 00 00 00 00 00 00 00 13 00 00 00   footer: index (the top level, 0x69, 19)
//	00c2  03 01 00 00                      version 3, CRC32C, filter not partitioned
//
// # Reading
//
// Open reads the footer, properties, index and filter once and keeps the
// index decoded in memory: each pair's start and key block length
// (blocktable.go), and an 8-byte big-endian prefix of each separator after
// the prefix all separators share, with the separator's length where that
// prefix holds all of it, else its bytes (shortseps.go), so a lookup costs one filter probe, one binary search over uint64s, one key
// block and, on a hit, one value block. Blocks come from the mapping when
// Mmap is set and the block is stored raw (zero-copy slices of the file for
// Get; an Iter copies them into its buffers, see mmap_fault.go), else from
// the Cache when one is given, else from pread into per-iterator
// (or pooled per-Get) buffers. A Get whose key block is not cached reads
// the whole pair in one pread and takes the value block from it without
// searching the cache, caching it exactly when the key block was cached
// (pairvalue.go). An iterator that reads values reads whole
// pairs, and reads ahead on sequential pairs: 16 KiB, doubling to 256 KiB a
// pread (pairBuf). A compressed table read with Mmap and no
// Cache decompresses a block on every visit: give such readers a cache.
//
// A partitioned table is read the same way: Open reads and checks every
// index and filter partition and keeps them decoded as above, so no reader
// path differs; a point lookup on partitioned filters finds its data block
// first and probes that block's filter partition. With
// ReaderOptions.CacheIndexAndFilterBlocks and a Cache, the Reader keeps
// only the top levels and the data block handles, and loads the
// partitions through the block cache (partitioncache.go); the separators,
// their prefixes and the filters are then not resident.
//
// Not done: the index and filter of a version 1 or 2 table in the block
// cache (they stay in the Reader), pinning L0 tables' partitions, and a
// binary fuse filter (the blocked bloom filter's one cache miss per probe
// leaves little to win at the same false-positive rate).
package sst
