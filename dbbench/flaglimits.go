package dbbench

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/internal/gflags"
)

// flagLimit is a range a numeric flag must lie in before any engine call.
// db_bench 7.8.3 has gflags validators for a few flags (flags/validators.go
// mirrors them); for the flags here it has none, and a value outside the
// range makes it abort on an assertion, throw, hang, or fail only at open.
// cxx, when set, is what C++ db_bench prints for such a value (the value
// formatted in with %s); otherwise the message is
// "Invalid value for --NAME: VALUE, must be RANGE".
type flagLimit struct {
	name     string
	min, max float64
	cxx      string
}

var inf = math.Inf(1)

// flagLimits are checked in this order. The numeric flags not listed either
// take any value db_bench takes (negative reads/writes/deletes mean --num,
// a non-positive cache_size means no cache, bloom_bits < 0 the table
// default, ...), are checked by db_bench's own validators (readwritepercent,
// deletepercent, cache_numshardbits, table_cache_numshardbits, prefix_size,
// subcompactions), by checkAfterSeed (key_size, compression_ratio,
// perf_level) or checkAtOpen (user_timestamp_size), are unsigned (gflags
// refuses a negative value), or have no effect here (--help lists them;
// setting one prints a warning).
var flagLimits = []flagLimit{
	// Sizes and counts db_bench stores in signed flags and later reads as
	// unsigned or as an array length.
	{"num", 0, inf, ""},                   // prints as 2^64-1 entries, then rand % num
	{"threads", 0, inf, ""},               // std::bad_array_new_length (0 runs nothing, as in db_bench)
	{"value_size", 0, inf, ""},            // assertion in RandomGenerator::Generate
	{"value_size_min", 0, inf, ""},        // the same assertion
	{"value_size_max", 0, inf, ""},        // the same assertion
	{"batch_size", 1, inf, ""},            // a batch of no entries writes nothing
	{"duration", 0, inf, ""},              // a negative duration never ends
	{"num_levels", 0, inf, ""},            // std::length_error
	{"write_buffer_size", 1, inf, ""},     // an empty memtable cannot hold an entry
	{"db_write_buffer_size", 0, inf, ""},  // read as size_t
	{"arena_block_size", 0, inf, ""},      // assertion in MemTable::MemTable
	{"target_file_size_base", 0, inf, ""}, // read as uint64
	{"block_size", 0, inf, "open error: Invalid argument: block size exceeds maximum number (4GiB) allowed"},
	{"max_scan_distance", 0, inf, ""},
	{"seek_nexts", 0, inf, ""},
	{"multiread_stride", 0, inf, ""},
	{"keys_per_prefix", 0, inf, ""},
	{"max_num_range_tombstones", 0, inf, ""}, // added to --num as a uint64 key count
	{"range_tombstone_width", 0, inf, ""},    // a range deletion's end key before its start
	{"readahead_size", 0, inf, ""},           // read as size_t
	// Enums db_bench casts without a check.
	{"compaction_style", 0, 3, ""}, // assertion in ColumnFamilyOptions::Dump
	{"compaction_pri", 0, 4, ""},   // the same assertion
	{"checksum_type", 0, 4, "open error: Invalid argument: Unrecognized ChecksumType for checksum: %s"},
	{"wal_recovery_mode", 0, 3, ""}, // RocksDB's four WALRecoveryMode values
	{"format_version", 0, 5, "open error: Invalid argument: Unsupported BlockBasedTable format_version. Please check include/rocksdb/table.h for more info"},
}

// checkFlagLimits returns the error of the first flag outside its limits.
func checkFlagLimits(fs *gflags.FlagSet) error {
	for _, l := range flagLimits {
		fl := fs.Lookup(l.name)
		if fl == nil {
			return fmt.Errorf("internal error: no flag --%s to check", l.name)
		}
		text := fl.Value()
		v, err := strconv.ParseFloat(text, 64)
		if err == nil && v >= l.min && v <= l.max {
			continue
		}
		if l.cxx != "" {
			return errors.New(strings.ReplaceAll(l.cxx, "%s", text))
		}
		return fmt.Errorf("Invalid value for --%s: %s, must be %s", l.name, text, l.rangeText())
	}
	return nil
}

// rangeText says the limits in the message's words.
func (l flagLimit) rangeText() string {
	if l.max == inf {
		return ">= " + strconv.FormatFloat(l.min, 'f', -1, 64)
	}
	return fmt.Sprintf("in [%s, %s]", strconv.FormatFloat(l.min, 'f', -1, 64), strconv.FormatFloat(l.max, 'f', -1, 64))
}
