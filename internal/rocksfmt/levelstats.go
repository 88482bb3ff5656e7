package rocksfmt

import (
	"fmt"
	"strings"
)

// LevelStats renders the "rocksdb.levelstats" property from each level's
// Files and SizeBytes (the other fields are not used), as RocksDB 7.8.3
// prints it: "Level Files Size(MB)", 20 dashes, then per level its number,
// file count and size in whole MiB, "%3d %8d %8.0f".
func LevelStats(levels []Level) string {
	var b strings.Builder
	b.WriteString("Level Files Size(MB)\n--------------------\n")
	for i := range levels {
		fmt.Fprintf(&b, "%3d %8d %8.0f\n", i, levels[i].Files, float64(levels[i].SizeBytes)/mib)
	}
	return b.String()
}
