package engine

import (
	"fmt"

	"github.com/godbbench/godbbench/options"
)

// RefusedOption returns the error that fails an open when the command line
// set, away from its default, an option the engine refuses (a note marked
// Refused), naming the engine and the flag in RocksDB's words for a
// missing feature ("Not implemented: ..."); nil when none is set. The
// first such option in notes' order is named.
func RefusedOption(o *options.Options, engineName string, notes []OptionNote) error {
	for _, n := range notes {
		if n.Refused && o.Explicit[n.Key] && !meansDefault(o, n.Key) {
			return fmt.Errorf("Not implemented: engine %s cannot apply --%s: %s", engineName, n.Key, n.How)
		}
	}
	return nil
}

// meansDefault reports whether an option set away from its default still
// asks for nothing the default does not: db_bench runs the default family
// alone for any --num_column_families <= 1, whatever
// --num_hot_column_families says.
func meansDefault(o *options.Options, key string) bool {
	switch key {
	case "num_column_families", "num_hot_column_families":
		return o.NumColumnFamilies <= 1
	}
	return false
}
