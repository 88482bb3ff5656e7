package tracefmt

// Type is a trace record's type byte (RocksDB's TraceType).
type Type byte

// The record types of a query trace.
const (
	TypeBegin       Type = 1  // the header
	TypeEnd         Type = 2  // the footer
	TypeWrite       Type = 3  // DB::Write of a WriteBatch (Put, Delete, Merge are batches of one)
	TypeGet         Type = 4  // DB::Get
	TypeSeek        Type = 5  // Iterator::Seek
	TypeSeekForPrev Type = 6  // Iterator::SeekForPrev
	TypeMultiGet    Type = 13 // DB::MultiGet
)

// Magic opens the header's payload.
const Magic = "feedcafedeadbeef"

// FileVersion is the trace format version this package writes ("0.2"),
// as ParseVersion reads it.
const FileVersion = 2

// recordHeaderSize is a record's timestamp, type and payload length.
const recordHeaderSize = 8 + 1 + 4

// The payload-map bits (RocksDB's TracePayloadType).
const (
	bitWriteBatch     = 1
	bitGetCF          = 2
	bitGetKey         = 3
	bitIterCF         = 4
	bitIterKey        = 5
	bitIterLower      = 6
	bitIterUpper      = 7
	bitMultiGetSize   = 8
	bitMultiGetCFs    = 9
	bitMultiGetKeys   = 10
	mapWrite          = 1 << bitWriteBatch
	mapGet            = 1<<bitGetCF | 1<<bitGetKey
	mapSeekWithoutBds = 1<<bitIterCF | 1<<bitIterKey
	mapMultiGet       = 1<<bitMultiGetSize | 1<<bitMultiGetCFs | 1<<bitMultiGetKeys
)

// The WriteBatch entry tags (RocksDB's ValueType as a batch uses it).
const (
	tagDelete         = 0x00
	tagPut            = 0x01
	tagMerge          = 0x02
	tagLogData        = 0x03
	tagCFDelete       = 0x04
	tagCFPut          = 0x05
	tagCFMerge        = 0x06
	tagSingleDelete   = 0x07
	tagCFSingleDelete = 0x08
	tagNoop           = 0x0D
	tagCFDeleteRange  = 0x0E
	tagDeleteRange    = 0x0F
)

// batchHeaderSize is a WriteBatch's sequence number and count.
const batchHeaderSize = 12
