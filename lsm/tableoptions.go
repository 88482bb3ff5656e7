package lsm

import (
	"fmt"
	"strconv"

	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/sst"
)

// This file maps db_bench's block-based table options onto the writer
// options of the block format (sst).

// indexCompressionKey is where Options.Extra holds --enable_index_compression
// when it is set away from its default.
const indexCompressionKey = "block_based_table_factory.enable_index_compression"

// indexCompression reports whether new tables compress their index block
// with the table's codec: RocksDB's enable_index_compression, true unless
// the option says otherwise.
func indexCompression(o *options.Options) (bool, error) {
	v, ok := o.Extra[indexCompressionKey]
	if !ok {
		return true, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("lsm: option enable_index_compression=%q: %w", v, err)
	}
	return on, nil
}

// Where Options.Extra holds the partitioning flags (options/byname.go):
// --partition_index and --partition_index_and_filters set the index type,
// the latter partition_filters too, and --metadata_block_size the
// partition size when the index is partitioned.
const (
	indexTypeKey         = "block_based_table_factory.index_type"
	partitionFiltersKey  = "block_based_table_factory.partition_filters"
	metadataBlockSizeKey = "block_based_table_factory.metadata_block_size"
)

// setPartitioning sets the partition options of w from o: a partitioned
// index for RocksDB's kTwoLevelIndexSearch, partitioned filters with
// partition_filters, partitions of metadata_block_size bytes (RocksDB's
// default 4096 when unset).
func setPartitioning(w *sst.WriterOptions, o *options.Options) error {
	w.PartitionIndex = o.Extra[indexTypeKey] == "kTwoLevelIndexSearch"
	if !w.PartitionIndex {
		return nil
	}
	if v, ok := o.Extra[partitionFiltersKey]; ok {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("lsm: option partition_filters=%q: %w", v, err)
		}
		w.PartitionFilters = on
	}
	w.MetadataBlockSize = 4096
	if v, ok := o.Extra[metadataBlockSizeKey]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("lsm: option metadata_block_size=%q: want a positive number of bytes", v)
		}
		w.MetadataBlockSize = n
	}
	return nil
}

// tableFormatVersion maps --format_version (0..5, RocksDB's range) to the
// block format's version. RocksDB's version 0 is its legacy footer, which
// records no checksum type and means CRC32C; the native format's version 1
// is the same idea, so 0 writes it. As RocksDB turns 0 into 1 when the
// checksum is not CRC32C, 0 then writes the current version, as do 1..5:
// their differences are RocksDB's index and filter encodings, which the
// native format does not have.
func tableFormatVersion(o *options.Options, checksum sst.ChecksumType) uint32 {
	if o.FormatVersion == 0 && checksum == sst.ChecksumCRC32C {
		return 1
	}
	return sst.FormatVersion
}
