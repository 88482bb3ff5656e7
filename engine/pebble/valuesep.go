package pebble

import (
	"strconv"

	"github.com/cockroachdb/pebble/v2"
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// valueSeparationNotes say how RocksDB's integrated BlobDB options map onto
// Pebble's value separation (Options.Experimental.ValueSeparationPolicy,
// which needs columnar blocks, on at FormatNewest): enable_blob_files and
// min_blob_size are applied; the other blob options name RocksDB's file
// sizing and garbage collection, which Pebble's policy does not have.
var valueSeparationNotes = []engine.OptionNote{
	{Key: "enable_blob_files", How: "Pebble's value separation: blob files in Pebble's own format, their values compressed with the level's compression_type, as the tables (blob_compression_type is not applied); a table references at most 10 overlapping blob files, beyond which a compaction rewrites the values, and blob files are never rewritten to reclaim garbage (RocksDB without blob garbage collection)"},
	{Key: "min_blob_size", How: "Pebble's MinimumSize; 0 becomes 1 (Pebble needs at least 1, so every non-empty value is separated)"},
}

// valueSeparationHonoured are the by-name options the pebble engine reads.
var valueSeparationHonoured = []string{"enable_blob_files", "min_blob_size"}

// applyValueSeparation turns on Pebble's value separation when
// enable_blob_files is set.
func applyValueSeparation(p *pebble.Options, o *options.Options) {
	if on, _ := strconv.ParseBool(o.Extra["enable_blob_files"]); !on {
		return
	}
	minSize := 1
	if n, err := strconv.Atoi(o.Extra["min_blob_size"]); err == nil && n > 1 {
		minSize = n
	}
	policy := pebble.ValueSeparationPolicy{
		Enabled:               true,
		MinimumSize:           minSize,
		MaxBlobReferenceDepth: 10,
		TargetGarbageRatio:    1.0,
	}
	p.Experimental.ValueSeparationPolicy = func() pebble.ValueSeparationPolicy { return policy }
}
