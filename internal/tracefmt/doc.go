// Package tracefmt reads and writes RocksDB's query trace files, the files
// db_bench's --trace_file records and its replay benchmark reads (RocksDB
// 7.8.3, trace format version 0.2). A file written here replays in C++
// db_bench and a C++ file is read here, byte for byte the same format.
//
// # File
//
// A trace file is a sequence of records back to back, with no padding and
// no checksums:
//
//	offset size field
//	0      8    timestamp: microseconds since the Unix epoch, little-endian
//	8      1    type (below)
//	9      4    payload length n, little-endian
//	13     n    payload
//
// The first record is the header (type 1) and the last the footer (type
// 2, empty payload). A reader stops at the footer: bytes after it are not
// part of the trace (C++ db_bench leaves the tail of an older, longer
// trace there, since it does not truncate the file it reuses).
//
// Types: 1 header, 2 footer, 3 write, 4 get, 5 iterator Seek, 6 iterator
// SeekForPrev, 13 MultiGet. Types 7-12 belong to block-cache and I/O
// traces, which are other files; a reader hands them on and a replayer
// skips them, as RocksDB's does.
//
// # Header payload
//
// Text, four fields separated by tabs and ended by a newline:
//
//	feedcafedeadbeef<TAB>Trace Version: 0.2<TAB>RocksDB Version: 7.8<TAB>Format: Timestamp OpType Payload<LF>
//
// The magic must open the payload. A version is digits with exactly one
// '.', read as the number its digits make ("0.2" is 2); payloads of
// version 2 and later carry a payload map, earlier ones do not.
//
// # Payloads from version 0.2
//
// Every payload other than the header's and the footer's opens with a
// payload map: 8 bytes, little-endian, bit i set when field i is present.
// The fields follow in increasing bit order. Fixed32 is 4 bytes
// little-endian; a slice is a varint32 length then that many bytes.
//
//	bit  field            record type  encoding
//	1    write batch      write        slice: a WriteBatch (below)
//	2    column family    get          fixed32
//	3    key              get          slice
//	4    column family    seek         fixed32
//	5    key              seek         slice
//	6    lower bound      seek         slice, present only when not empty
//	7    upper bound      seek         slice, present only when not empty
//	8    key count k      MultiGet     fixed32
//	9    column families  MultiGet     slice holding k fixed32s
//	10   keys             MultiGet     slice holding k slices
//
// Version 0.1 payloads: a write is the WriteBatch itself; a get and a
// seek are a fixed32 column family then a slice key; MultiGet does not
// exist.
//
// # WriteBatch
//
// RocksDB's WriteBatch representation:
//
//	offset size field
//	0      8    sequence number, little-endian (0 in a trace: it is
//	            recorded before the write is sequenced)
//	8      4    count of the entries, little-endian
//	12     ...  entries
//
// An entry is a tag byte then its fields, each a slice:
//
//	tag   entry                          fields
//	0x00  Delete                         key
//	0x01  Put                            key, value
//	0x02  Merge                          key, value
//	0x07  SingleDelete                   key
//	0x0F  DeleteRange                    begin key, end key
//	0x04  Delete in a column family      varint32 family, key
//	0x05  Put in a column family         varint32 family, key, value
//	0x06  Merge in a column family       varint32 family, key, value
//	0x08  SingleDelete in a family       varint32 family, key
//	0x0E  DeleteRange in a family        varint32 family, begin, end
//	0x03  log data (not a write)         blob
//	0x0D  no-op                          none
//
// Other tags (blob indexes, two-phase-commit markers, wide columns) are
// refused by BatchEntries as corruption.
package tracefmt
