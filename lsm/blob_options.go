package lsm

import (
	"fmt"
	"strconv"

	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/sst"
)

// blobOptions are the key-value separation options, RocksDB's integrated
// BlobDB column family options with RocksDB's defaults. The driver passes
// them by name in options.Options.Extra (set only when away from the
// default).
type blobOptions struct {
	enabled     bool            // enable_blob_files
	minSize     uint64          // min_blob_size
	fileSize    uint64          // blob_file_size
	compression sst.Compression // blob_compression_type
	startLevel  int             // blob_file_starting_level
	gc          bool            // enable_blob_garbage_collection
	ageCutoff   float64         // blob_garbage_collection_age_cutoff
}

// parseBlobOptions reads o.Extra's blob options.
func parseBlobOptions(o *options.Options) (blobOptions, error) {
	b := blobOptions{fileSize: 256 << 20, ageCutoff: 0.25}
	var err error
	get := func(name string, parse func(string) error) {
		v, ok := o.Extra[name]
		if !ok || err != nil {
			return
		}
		if perr := parse(v); perr != nil {
			err = fmt.Errorf("lsm: option %s=%q: %w", name, v, perr)
		}
	}
	boolOf := func(dst *bool) func(string) error {
		return func(v string) (e error) { *dst, e = strconv.ParseBool(v); return }
	}
	uintOf := func(dst *uint64) func(string) error {
		return func(v string) (e error) { *dst, e = strconv.ParseUint(v, 10, 64); return }
	}
	get("enable_blob_files", boolOf(&b.enabled))
	get("min_blob_size", uintOf(&b.minSize))
	get("blob_file_size", uintOf(&b.fileSize))
	get("enable_blob_garbage_collection", boolOf(&b.gc))
	get("blob_garbage_collection_age_cutoff", func(v string) (e error) {
		b.ageCutoff, e = strconv.ParseFloat(v, 64)
		if e == nil && (b.ageCutoff < 0 || b.ageCutoff > 1) {
			e = fmt.Errorf("must be in [0, 1]")
		}
		return
	})
	get("blob_file_starting_level", func(v string) (e error) { b.startLevel, e = strconv.Atoi(v); return })
	get("blob_compression_type", func(v string) error {
		name, e := options.CompressionFromRocksDB(v)
		if e != nil {
			name = v
		}
		b.compression, e = sst.ParseCompression(name)
		return e
	})
	if err == nil && b.enabled && o.TableFormat == options.TableFormatRTable {
		err = fmt.Errorf("lsm: enable_blob_files needs the block table format, not %s", o.TableFormat)
	}
	return b, err
}

// writesBlobs reports whether outputs to level put values in blob files.
func (b *blobOptions) writesBlobs(level int) bool { return b.enabled && level >= b.startLevel }
