package native

import (
	"testing"

	"github.com/godbbench/godbbench/engine/enginetest"
	"github.com/godbbench/godbbench/options"
)

// withBlobFiles puts values of 8 bytes and more in blob files of 64 KiB,
// lz4-compressed, with garbage collection on.
func withBlobFiles(o *options.Options) {
	o.Extra = map[string]string{
		"enable_blob_files":                  "true",
		"min_blob_size":                      "8",
		"blob_file_size":                     "65536",
		"blob_compression_type":              "kLZ4Compression",
		"enable_blob_garbage_collection":     "true",
		"blob_garbage_collection_age_cutoff": "0.5",
	}
}

func TestConformanceWithBlobFiles(t *testing.T) {
	enginetest.RunConformance(t, openWith(t, withBlobFiles))
}

func TestMergeWithBlobFiles(t *testing.T) {
	o := options.Default()
	o.WriteBufferSize = 256 << 10
	withBlobFiles(o)
	enginetest.RunMerge(t, enginetest.MergeOpenWith(t, Opener{}, o), true)
}
