// Package rtable implements the read-optimized table format of the native
// engine: an immutable, sorted file of internal keys (user key, sequence
// number, kind) and values, like sst's block format and built behind the
// same shape (Writer.Add in internal-key order; Reader.Get and an Iter),
// but laid out for point reads through a memory mapping with no block
// cache: keys are a dense column searched by a learned index, values are
// addressed by the entry's ordinal, and nothing is decoded per lookup.
//
// # Contract
//
//   - A Writer receives entries in internal-key order (user key ascending
//     bytewise, then sequence number descending) and rejects anything
//     else. It holds the keys (and the trailers and value lengths when they
//     vary) until Finish; values stream to the output (under value codec
//     2, once the first DictSampleBytes of them, held to choose the
//     dictionary, have been written).
//   - A Reader maps the whole file. It is safe for concurrent use; an Iter
//     is used by one goroutine at a time.
//   - Get hands its callback the value in place in the mapping (in a
//     compressed table, decompressed into a pooled buffer), valid during
//     the callback; Iter.Key and Iter.Value are valid until the iterator
//     moves. Get, every Iter move, Key and Value allocate nothing in
//     steady state.
//   - Damaged bytes give an error wrapping ErrCorruption (which wraps
//     sst.ErrCorruption) that names the file and the offset, never a panic
//     and never wrong data: Open checks the dictionary and every section
//     except the value area against its CRC32C, and each value group of
//     64 entries is checked against its CRC32C before any of its values is
//     first handed out. A file of another length than the recorded one is refused
//     before it is mapped. A file that shrinks after Open faults on access
//     (SIGBUS): a caller that can meet one guards its reads, and its reads
//     of bytes handed out in place, with internal/mmapfault's Catch (the
//     Reader registers its mapping there), as it does for sst's mapped
//     Get.
//   - A key-only scan (Iter moves and Key, no Value) reads the keys section
//     alone, and the trailers section when it asks for Seq or Kind: it
//     never touches a value page.
//
// # Format, versions 1, 2 and 3
//
// Versions 1 and 2 differ only in the trailers column (one kind bit in
// version 1, two in version 2). Version 3 has version 2's trailers column
// and adds a range deletion section and, at the end of the meta section,
// what the filter holds (prefixes, whole keys) and the tombstone count. A
// Writer writes version 3 for a table with range tombstones or a filter
// of prefixes, else version 2 for a table whose trailers column holds a
// merge operand, else version 1, so a table has the bytes of the oldest
// version that holds it; Open reads all three.
//
// All integers are little endian unless said otherwise; "uvarint" is the
// unsigned LEB128 varint of encoding/binary; CRC is CRC32C (Castagnoli,
// unmasked). n is the number of entries, G = ceil(n/64) the number of
// value groups (entries 64g .. 64g+63 form group g). A table is:
//
//	dictionary         (value codec 2 only) up to MaxDictBytes
//	value area         values of entries 0 .. n-1, back to back
//	keys section
//	key index section
//	trailers section   (empty when every trailer is the base trailer)
//	value offsets      (empty when every value has the same length)
//	value checksums
//	filter section     (empty without a filter)
//	range deletions    (version 3 only; empty without range tombstones)
//	meta section
//	footer             (32 bytes)
//
// The sections follow each other with no gap, in this order; the meta
// section records each one's offset, length and CRC, and the dictionary's
// length and CRC. Offsets within the value area (value offsets, the
// value of entry i) count from the value area's start, which is the
// dictionary's length.
//
// A packed column of width w (1..8) is one unsigned integer per entry in w
// bytes, little endian, back to back, followed by 7 zero bytes (so that
// any entry is one 8-byte load and a mask).
//
// Keys section, packed layout (key mode 1): used when every user key has
// the same length K and the keys differ only in W <= 8 bytes between a
// common prefix P (the prefix the first and last keys share) and a
// common suffix S (the longest suffix all keys share, not overlapping P;
// when all keys are equal, one byte of S, or of P, is kept varying). The
// section is the packed column of width W of the varying bytes of each
// key read as a big-endian integer. db_bench's 16-byte keys (an 8-byte
// big-endian number and eight '0's) at --num=1000000 have P = 5 zero
// bytes, S = "00000000" and W = 3: 3 bytes per key.
//
// Keys section, variable layout (key mode 2): any other keys. u32 offsets
// o_0 .. o_n (o_0 = 0, non-decreasing), then the key bytes: key i is P
// followed by bytes o_i .. o_(i+1) of the key bytes (P is the prefix of
// the first and last keys).
//
// Key index section, packed layout: a RadixSpline over the distinct
// varying parts x (as integers) and the ordinal y of each one's first
// entry:
//
//	u32 M (knots, >= 1) | u32 R (radix bits, <= 16) | u32 shift | u32 E (error bound)
//	u64 x_0 .. x_(M-1)  (strictly increasing; x_0 and x_(M-1) are the smallest and largest key)
//	u64 y_0 .. y_(M-1)  (non-decreasing, < n)
//	u32 T_0 .. T_(2^R)  (T_p: the first knot with (x - x_0) >> shift >= p; T_(2^R) = M)
//
// For a key x in [x_0, x_(M-1)], with p = (x - x_0) >> shift, the knot
// segment holding x is found among knots T_p .. T_(p+1), and the
// prediction is y_i + (x - x_i)(y_(i+1) - y_i)/(x_(i+1) - x_i), truncated;
// the writer places knots (greedy spline corridor) so that every distinct
// key's first ordinal is within E-1 of its prediction. The reader checks
// the key at the prediction and searches outward from it, doubling the
// step, until it brackets the key, then binary searches the bracket: E
// bounds the work (about 2 log2 E keys, in practice one cache line for
// db_bench's dense keys), and a wrong or damaged index costs time, never
// a wrong answer.
//
// Key index section, variable layout: u64 per sampled key (keys 0, 16,
// 32, ...): its first 8 bytes after P as a big-endian integer, zero
// padded.
//
// Trailers section: when the trailer width TW is 0, every entry's trailer
// (base.Trailer, seq<<8 | kind) is the base trailer and the section is
// empty; a bottommost table whose entries all have sequence 0 and kind Set
// stores nothing per entry. Otherwise the base trailer is the smallest
// sequence number s0 with kind 0 (s0<<8), and the section is the packed
// column of width TW of (seq - s0)<<k | kind, with k kind bits: version 1
// holds the kinds Delete (0) and Set (1) only, k = 1, so an L0 table of 5M
// sequence numbers takes 3 bytes an entry where seq<<8 | kind would take
// 4; version 2 adds Merge (2), k = 2 (testdata/merge.hex: the trailers
// 0a 01 04 are ("k1", seq 4, merge), ("k1", 2, set), ("k2", 3, delete)
// over s0 = 2). A kind value that is not one of these is corruption. When
// TW is 0 the base trailer's kind is the kind of every entry, merge
// included, in either version.
//
// Value offsets section: empty when every value has the same length L
// (value i is bytes iL .. (i+1)L of the value area). Otherwise: u64 per
// group, the offset of the group's first value in the file; then the
// packed column of width OW of each value's end relative to its group's
// start. Value i of group g ends at start_g + e_i and begins at start_g +
// e_(i-1), or at start_g when i is first in its group.
//
// Value codec 1 (ValueSnappy): a stored value is empty for an empty value,
// else a tag byte, 0 for a value stored raw after it and 1 for a value in
// the snappy block format after it; the writer compresses a value alone,
// and only when that saves at least 1/8 of its bytes. Offsets, lengths and
// checksums all refer to the stored bytes.
//
// Value codec 2 (ValueDict): a stored value is empty for an empty value,
// else a sequence of operations against the dictionary D, ending where
// the stored bytes end. Each starts with a uvarint h: when h is even, h/2
// >= 1 literal bytes follow and are copied out; when h is odd, a uvarint
// o follows and (h-1)/2 >= 1 bytes of D starting at o are copied out (o +
// length <= len(D)). Anything else is corruption. The writer writes every
// o in the same number of bytes, that of the uvarint len(D)-1 (1 for D up
// to 128 bytes, 2 up to 16 KiB, 3 up to MaxDictBytes), adding 0x80 bytes
// of no value before the last one where o is shorter (a reader decodes o
// as any uvarint): a table whose values are whole copies of one length
// then stores every value in the same number of bytes, the fixed-length
// case above with no value offsets section. The writer chooses D
// from the first DictSampleBytes (8 MiB) of the table's values, greedily
// in value order: a value of 6 bytes or more joins D when coding it
// against D so far saves less than half its bytes, while D stays within
// MaxDictBytes (2 MiB). It codes each value greedily, copying the longest
// match that the last position of D with the same 6 bytes offers. It
// keeps D only when the sample coded against D, plus D itself, is smaller
// than codec 1 makes the sample, and writes codec 1 otherwise.
//
// Value checksums section: u32 per group, the CRC of the bytes from the
// group's first value's start to its last value's end.
//
// Filter section: a blocked bloom filter over the distinct user keys, in
// 64-byte lines. A packed-key table hashes the varying part x as
// splitmix64's finalizer applied to x + 0x2545F4914F6CDD1D; a variable-key
// table hashes the key after P (hashBytes). A version 3 table whose meta
// section records a prefix length N > 0 also holds the distinct prefixes
// (the first N bytes of every key of at least N bytes, P included),
// each hashed whole with hashBytes, and holds no whole keys when the meta
// section says so (RocksDB's whole_key_filtering=false); Get then probes
// the key's prefix, and skips the filter for a key shorter than N. The line of hash h is
// (h>>32) × lines >> 32; the probes are the 9-bit fields of h ×
// 0x9E3779B97F4A7C15, least significant first, each naming bit b of the
// line (byte b/8, mask 1<<(b%8)); the meta section gives the probe count.
//
// Range deletion section (version 3): the table's range tombstones,
// fragmented (internal/rangedel): disjoint key ranges in ascending order,
// each with the sequence numbers of the tombstones covering all of it:
//
//	uvarint F                       fragments, >= 1 when the section is not empty
//	F times, in key order:
//	  uvarint len(start), start     the fragment is [start, end), start < end,
//	  uvarint len(end), end         start >= the previous fragment's end
//	  uvarint S, S >= 1             sequences, then S uvarints strictly descending
//
// the bytes sst's block format keeps in its range-deletion block. A
// tombstone [start, end) at sequence t deletes every entry of a user key
// in the range with a sequence below t, in this table and in any older
// one; the reader hands them to the engine (Reader.RangeDels) and applies
// none itself.
//
// Meta section, uvarints in this order: n; deletions; raw key bytes (user
// keys plus 8 each); the value area's length; smallest
// seq; largest seq (both over the entries and the range tombstones); key mode (1 packed, 2 variable); K (0 if variable); P
// as uvarint length and bytes; S likewise (empty if variable); W (0 if
// variable); TW; base trailer; L+1, or 0 when value lengths vary; OW (0
// when they do not); filter probes (0: no filter); value codec (0 raw, 1
// snappy per value, 2 dictionary); raw value bytes (before compression);
// for value codec 2 only, the dictionary's length as a uvarint and its
// u32 CRC (so tables of codecs 0 and 1 have the same bytes as before
// codec 2 existed, and a reader that predates it refuses a codec-2
// table at Open as corrupt, naming the codec). Then for each of the six
// sections in file order (seven in version 3, the range deletion section
// last): uvarint offset, uvarint length, u32 CRC of its bytes. Version 3
// then has: the filter's prefix length N (0: whole keys only); 1 when
// whole keys are in the filter, 0 when not (never 0 with N = 0); the
// number of range tombstones, counted as sequences over all fragments
// (0 exactly when the range deletion section is empty).
//
// Footer, 32 bytes at the end of the file:
//
//	 0  u64 meta offset   |  8  u32 meta length  | 12  u32 meta CRC
//	16  u32 format version (1, 2 or 3)
//	20  u32 CRC of bytes 0..19
//	24  u64 magic 0x3162747262626467 (the bytes "gdbbrtb1")
//
// # Example
//
// The entries ("key1", 0, set, "v1"), ("key2", 0, set, "v2"), ("key5", 0,
// set, "v5") with no filter give this 177-byte table (pinned by
// TestGoldenTable, testdata/example.hex):
//
//	0000  76 31 76 32 76 35            value area "v1" "v2" "v5"
//	0006  31 32 35 00.. (7 zeros)      keys: P "key", S "", W 1: 0x31 0x32 0x35
//	0010  02 00 00 00  02 00 00 00  01 00 00 00  20 00 00 00
//	                                   key index: 2 knots, R 2, shift 1, E 32
//	0020  31 00.. 35 00..              x: 0x31, 0x35
//	0030  00 00.. 02 00..              y: 0, 2
//	0040  00 00 00 00  01 00 00 00  01 00 00 00  02 00 00 00  02 00 00 00
//	                                   T: 0 1 1 2 2
//	0054  e6 c9 9b 85                  value checksums: group 0
//	0058  03 00 24 06 00 00 01 04 03 6b 65 79 00 01 00 01 03 00 00 00 06
//	                                   meta: 3 entries, 0 deletions, 36, value area 6, seq 0..0,
//	                                   packed, K 4, P "key", S "", W 1, TW 0, base 0x1, L+1 3,
//	                                   OW 0, no filter, codec raw, 6 raw value bytes
//	006d  06 0a 7c 7a 63 28            keys at 6, 10 bytes, CRC
//	0073  10 44 e6 c6 72 86            key index at 0x10, 68 bytes, CRC
//	0079  54 00 00 00 00 00            trailers: empty
//	007f  54 00 00 00 00 00            value offsets: empty
//	0085  54 04 fa cf a1 a9            value checksums at 0x54, 4 bytes, CRC
//	008b  58 00 00 00 00 00            filter: empty
//	0091  58 00.. 39 00 00 00  7e ee 70 cf  01 00 00 00  6d be ad 49  67 64 62 62 72 74 62 31
//	                                   footer: meta (0x58, 57 bytes, CRC), version 1, CRC, magic
//
// A Get of "key2": the prefix and length match; x = 0x32; no filter;
// p = (0x32-0x31)>>1 = 0, knots T_0..T_1 = 0..1, segment 0, prediction
// 0 + 1×2/4 = 0; key 0 (0x31) is below 0x32, key 1 (0x32) is not, so the
// key is ordinal 1; its trailer is the base trailer (seq 0, set), and the
// value is bytes 2..4 of the value area, handed out after value group 0's
// CRC has been checked once.
//
// With value codec 2, the entries ("a", "abcdefghij"), ("b",
// "abcdefghij"), ("c", "cdefgh"), ("d", "xyz"), all at sequence 0 and
// kind set, give this 213-byte table (testdata/dict.hex):
//
//	0000  61 62 63 64 65 66 67 68 69 6a   dictionary "abcdefghij"
//	000a  15 00  15 00  0d 02  06 78 79 7a
//	                                   value area: copy 10 from 0, copy 10 from 0,
//	                                   copy 6 from 2, literal "xyz"
//	0014  61 62 63 64 00.. (7 zeros)   keys: P "", S "", W 1
//	001f  key index (68 bytes): 2 knots, R 2, shift 0, E 32, x 0x61 0x64, y 0 3, T 0 1 1 1 2
//	0063  00 00 00 00 00 00 00 00  02 04 06 0a 00.. (7 zeros)
//	                                   value offsets: group 0 at 0, ends 2 4 6 10 (OW 1)
//	0076  0f 9c e7 a6                  value checksums: group 0
//	007a  04 00 24 0a 00 00 01 01 00 00 01 00 01 00 01 00 02 1d  0a 37 94 59 e6
//	                                   meta: 4 entries, ..., L+1 0, OW 1, no filter,
//	                                   codec 2, 29 raw value bytes; dictionary 10 bytes, CRC
//	      then the six sections (keys at 0x14, 11 bytes; index at 0x1f, 68;
//	      trailers empty; offsets at 0x63, 19; checksums at 0x76, 4; filter empty)
//	00b5  footer: meta (0x7a, 59 bytes, CRC), version 1, CRC, magic
//
// "xyz" is shorter than the 6 bytes a match needs, so it never joins the
// dictionary and stays a literal. A Get of "c" finds ordinal 2, whose
// stored value is bytes 4..6 of the value area (ends 4 and 6 of group 0),
// 0d 02: h = 13, odd, so a copy of 6 bytes of D from offset 2, "cdefgh".
//
// With range tombstones, format version 3: the entries ("a", 5, set, "1"),
// ("c", 3, set, "2"), ("e", 4, delete) and the tombstones ["b", "d") at 6
// and ["c", "f") at 2 give this 228-byte table (testdata/rangedel.hex):
//
//	0000  31 32                        value area "1" "2" (the deletion's is empty)
//	0002  61 63 65 00.. (7 zeros)      keys: P "", S "", W 1
//	000c  key index (68 bytes): 2 knots, R 2, shift 1, E 32, x 0x61 0x65, y 0 2, T 0 1 1 2 2
//	0050  09 01 04 00.. (7 zeros)      trailers: TW 1 over s0 = 3, two kind bits:
//	                                   (5-3)<<2|1, (3-3)<<2|1, (4-3)<<2|0
//	005a  00 00 00 00 00 00 00 00  01 02 02 00.. (7 zeros)
//	                                   value offsets: group 0 at 0, ends 1 2 2 (OW 1)
//	006c  60 c4 55 73                  value checksums: group 0
//	0070  03  01 62 01 63 01 06  01 63 01 64 02 06 02  01 64 01 66 01 02
//	                                   range deletions: 3 fragments,
//	                                   ["b", "c"): 6; ["c", "d"): 6, 2; ["d", "f"): 2
//	0084  03 01 1b 02 02 06 01 01 00 00 01 01 80 06 00 01 00 00 02
//	                                   meta: 3 entries, 1 deletion, 27, value area 2,
//	                                   seq 2..6 (the tombstones widen 3..5), packed, K 1,
//	                                   P "", S "", W 1, TW 1, base 0x300, L+1 0, OW 1,
//	                                   no filter, codec raw, 2 raw value bytes
//	      then the seven sections (keys at 0x02, 10 bytes; index at 0x0c, 68;
//	      trailers at 0x50, 10; offsets at 0x5a, 18; checksums at 0x6c, 4;
//	      filter empty at 0x70; range deletions at 0x70, 20), each with its CRC
//	00c1  00 01 04                     filter prefix length 0, whole keys 1, 4 tombstones
//	00c4  footer: meta (0x84, 64 bytes, CRC), version 3, CRC, magic
//
// Its properties give the key range ["a", "f"]: the last fragment's end,
// an exclusive bound, is the table's largest key, as in the block format.
//
// # Why this layout
//
// A point read in sst's block format pays a filter probe, a binary search
// of the index, a block-cache probe (or a pread), a restart-point search
// and a prefix-decoding walk through the block, and then the value block.
// Here it pays the filter line, the prediction (the radix table and knots
// are a few hundred bytes for db_bench's keys, so they stay cached), a
// search outward from the predicted ordinal in a column of 3-byte keys,
// and the value's own line(s): nothing is decoded and nothing is copied.
// A learned index rather than a trie: db_bench's keys are integers, dense
// (fillseq, and any key range a table covers after compaction) or uniform
// (random fills), for which a spline needs 2 knots (dense) or about n/1000
// (uniform, TestSplineErrorBound), and the keys themselves shrink to their
// varying bytes; a succinct trie over the same keys would spend its bits
// on the same information and need several rank/select steps per level.
// Variable keys, which db_bench never makes, take the simple fallback.
//
// Why this value codec: db_bench's values are consecutive slices of one
// buffer of about 1 MiB (RandomGenerator), so at 50 bytes a value there
// are about 10,500 distinct values in any table, each 50 bytes of random
// printable characters that per-value snappy cannot shrink; a dictionary
// holding each once turns every value into one copy of 4 bytes. A hand-
// made LZ77 against the dictionary rather than zstd with the same
// dictionary (BenchmarkDictDecode, 50-byte values, dictionary of 524,300
// bytes chosen as the writer chooses it, one run on the loaded machine):
// codec 2 stores 3.9 bytes a value and decodes one in 36 CPU ns; zstd
// (klauspost/compress, best compression, one frame per value, raw-content
// dictionary) stores 19.0 bytes (its frame and block headers alone are
// larger than a copy) and decodes in 894 CPU ns; neither allocates.
//
// Measured (BenchmarkRead, 1M entries, 8-byte keys with 50-byte values
// and 16-byte keys with 100-byte values, tables read once before timing,
// Get copying the value out, CPU ns per operation on a machine loaded to
// 15-20 runnable threads on 2 cores; docs/BENCHMARKS.md has the tables,
// the 10M-entry rows and the commands): Get hits cost 1018-1139 ns
// against 2854-3967 for sst (mapped or fully cached) and 4364-5449 for
// Pebble, SeekGE 289-300 against 1367-1686 and 4234-4340, key-only scans
// 21-32 ns an entry against 28-57 and 68-93, while the file is smaller
// than the block format's (54.3 against 56.7 bytes an entry for 8/50,
// 104.3 against 115.4 for 16/100) and builds in the same CPU time.
//
// The physical limit: a hit needs the filter line, the key's line of the
// keys section and the value's line(s), plus the TLB walks of a 4 KiB-page
// mapping. At 1M entries the filter (1.2 MiB) and keys (3 MiB) mostly stay
// in the last-level cache and the 100 MiB of values do not; one dependent
// random miss in a file mapping costs 293-317 CPU ns under the same load
// (BenchmarkPointerChase), so one to three misses account for most of the
// measured Get. What is left to win is the value miss's TLB walk (huge
// pages for the mapping), not the lookup. With value codec 2 and values
// that are whole copies of one length (db_bench's), a hit reads the
// filter and key lines, then the value's fixed-length copy at its
// ordinal times the length, then the dictionary's bytes: three dependent
// misses, against which docs/BENCHMARKS.md sets the measured Get at 5M
// keys.
//
// # Not done yet
//
// A dictionary chosen from more than the first 8 MiB of a table's values
// (a table whose values change character after its start codes the rest
// against a dictionary that fits them less), and copies from earlier in
// the same value (db_bench's 100-byte values repeat their first half;
// a value missing from the dictionary is stored as one literal); a
// smaller record of value ends in the Writer (8 bytes an entry once
// stored values vary in length, as dictionary-coded ones of mixed lengths
// do: 40 MB of a 5M-entry table's build); huge pages for the mapping; and
// madvise advice per region: the kernel reads a file around each
// faulting page (read_ahead_kb is 8 MiB on the machine the numbers above
// come from), so a cold key-only scan can bring in the value pages
// nearest the keys section although the reader never touches them
// (TestKeyScanLeavesValuePagesAlone turns read-around off to observe
// that), and a cold Get reads far more than its value.
//
// # In the engine
//
// The native engine writes this format for the levels below L0 when its
// options say TableFormat "rtable" (--table_format=rtable, or
// table_factory=RTable in an OPTIONS file), and opens every table in the
// format its footer's magic number names (HasMagic), so one DB may hold
// both formats. With any --compression_type but none it asks for value
// codec 2, which the writer turns into codec 1 for a table whose values
// do not recur. It guards Get, opens and compactions against faults in a
// mapping (internal/mmapfault), and reads iterators in guarded batches
// that it copies (lsm/iter_rtable.go); docs/BENCHMARKS.md ("rtable in the
// engine") has the db_bench numbers. A flush or compaction output with
// range tombstones (DeleteRange) is an rtable table like any other, its
// tombstones in the range deletion section; with a prefix extractor
// (--prefix_size) the filters hold prefixes, and whole keys unless
// --whole_key_filtering=0, as the block format's do, so a prefix seek
// skips the tables whose filters rule its prefix out.
package rtable
