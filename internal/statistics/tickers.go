package statistics

// Ticker is a counter the engines keep, one of RocksDB's tickers. Only the
// tickers some engine counts are here; the others print as zero.
type Ticker uint8

// The tickers kept, with RocksDB's names in tickerNames.
const (
	BlockCacheMiss Ticker = iota
	BlockCacheHit
	BlockCacheAdd
	BlockCacheDataMiss
	BlockCacheDataHit
	BlockCacheDataAdd
	BlockCacheDataBytesInsert
	BlockCacheIndexMiss
	BlockCacheIndexHit
	BlockCacheIndexAdd
	BlockCacheIndexBytesInsert
	BlockCacheFilterMiss
	BlockCacheFilterHit
	BlockCacheFilterAdd
	BlockCacheFilterBytesInsert
	BlockCacheBytesRead
	BlockCacheBytesWrite
	BloomFilterUseful
	BloomFilterFullPositive
	BloomFilterFullTruePositive
	MemtableHit
	MemtableMiss
	GetHitL0
	GetHitL1
	GetHitL2AndUp
	KeysWritten
	KeysRead
	BytesWritten
	BytesRead
	DBSeek
	DBNext
	DBPrev
	DBSeekFound
	DBNextFound
	DBPrevFound
	IterBytesRead
	StallMicros
	WALSynced
	WALBytes
	WriteDoneBySelf
	WriteDoneByOther
	WriteWithWAL
	CompactReadBytes
	CompactWriteBytes
	FlushWriteBytes
	IteratorsCreated
	IteratorsDeleted
	RateLimiterDrains
	RowCacheHit
	RowCacheMiss
	BloomFilterPrefixChecked
	BloomFilterPrefixUseful
	NoFileOpens
	NoFileErrors
	numTickers
)

// tickerNames are RocksDB's names of the tickers kept.
var tickerNames = [numTickers]string{
	BlockCacheMiss:              "rocksdb.block.cache.miss",
	BlockCacheHit:               "rocksdb.block.cache.hit",
	BlockCacheAdd:               "rocksdb.block.cache.add",
	BlockCacheDataMiss:          "rocksdb.block.cache.data.miss",
	BlockCacheDataHit:           "rocksdb.block.cache.data.hit",
	BlockCacheDataAdd:           "rocksdb.block.cache.data.add",
	BlockCacheDataBytesInsert:   "rocksdb.block.cache.data.bytes.insert",
	BlockCacheIndexMiss:         "rocksdb.block.cache.index.miss",
	BlockCacheIndexHit:          "rocksdb.block.cache.index.hit",
	BlockCacheIndexAdd:          "rocksdb.block.cache.index.add",
	BlockCacheIndexBytesInsert:  "rocksdb.block.cache.index.bytes.insert",
	BlockCacheFilterMiss:        "rocksdb.block.cache.filter.miss",
	BlockCacheFilterHit:         "rocksdb.block.cache.filter.hit",
	BlockCacheFilterAdd:         "rocksdb.block.cache.filter.add",
	BlockCacheFilterBytesInsert: "rocksdb.block.cache.filter.bytes.insert",
	BlockCacheBytesRead:         "rocksdb.block.cache.bytes.read",
	BlockCacheBytesWrite:        "rocksdb.block.cache.bytes.write",
	BloomFilterUseful:           "rocksdb.bloom.filter.useful",
	BloomFilterFullPositive:     "rocksdb.bloom.filter.full.positive",
	BloomFilterFullTruePositive: "rocksdb.bloom.filter.full.true.positive",
	MemtableHit:                 "rocksdb.memtable.hit",
	MemtableMiss:                "rocksdb.memtable.miss",
	GetHitL0:                    "rocksdb.l0.hit",
	GetHitL1:                    "rocksdb.l1.hit",
	GetHitL2AndUp:               "rocksdb.l2andup.hit",
	KeysWritten:                 "rocksdb.number.keys.written",
	KeysRead:                    "rocksdb.number.keys.read",
	BytesWritten:                "rocksdb.bytes.written",
	BytesRead:                   "rocksdb.bytes.read",
	DBSeek:                      "rocksdb.number.db.seek",
	DBNext:                      "rocksdb.number.db.next",
	DBPrev:                      "rocksdb.number.db.prev",
	DBSeekFound:                 "rocksdb.number.db.seek.found",
	DBNextFound:                 "rocksdb.number.db.next.found",
	DBPrevFound:                 "rocksdb.number.db.prev.found",
	IterBytesRead:               "rocksdb.db.iter.bytes.read",
	StallMicros:                 "rocksdb.stall.micros",
	WALSynced:                   "rocksdb.wal.synced",
	WALBytes:                    "rocksdb.wal.bytes",
	WriteDoneBySelf:             "rocksdb.write.self",
	WriteDoneByOther:            "rocksdb.write.other",
	WriteWithWAL:                "rocksdb.write.wal",
	CompactReadBytes:            "rocksdb.compact.read.bytes",
	CompactWriteBytes:           "rocksdb.compact.write.bytes",
	FlushWriteBytes:             "rocksdb.flush.write.bytes",
	IteratorsCreated:            "rocksdb.num.iterator.created",
	IteratorsDeleted:            "rocksdb.num.iterator.deleted",
	RateLimiterDrains:           "rocksdb.number.rate_limiter.drains",
	RowCacheHit:                 "rocksdb.row.cache.hit",
	RowCacheMiss:                "rocksdb.row.cache.miss",
	BloomFilterPrefixChecked:    "rocksdb.bloom.filter.prefix.checked",
	BloomFilterPrefixUseful:     "rocksdb.bloom.filter.prefix.useful",
	NoFileOpens:                 "rocksdb.no.file.opens",
	NoFileErrors:                "rocksdb.no.file.errors",
}

// String is the ticker's RocksDB name.
func (t Ticker) String() string { return tickerNames[t] }
