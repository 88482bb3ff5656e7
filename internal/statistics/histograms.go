package statistics

// HistogramKind is a histogram the engines keep, one of RocksDB's. Only
// those some engine records are here; the others print empty.
type HistogramKind uint8

// The histograms kept, with RocksDB's names in histogramNames.
const (
	DBGetMicros HistogramKind = iota
	DBWriteMicros
	CompactionMicros
	DBSeekMicros
	BytesPerRead
	BytesPerWrite
	FlushMicros
	numHistograms
)

// histogramNames are RocksDB's names of the histograms kept.
var histogramNames = [numHistograms]string{
	DBGetMicros:      "rocksdb.db.get.micros",
	DBWriteMicros:    "rocksdb.db.write.micros",
	CompactionMicros: "rocksdb.compaction.times.micros",
	DBSeekMicros:     "rocksdb.db.seek.micros",
	BytesPerRead:     "rocksdb.bytes.per.read",
	BytesPerWrite:    "rocksdb.bytes.per.write",
	FlushMicros:      "rocksdb.db.flush.micros",
}

// String is the histogram's RocksDB name.
func (k HistogramKind) String() string { return histogramNames[k] }
