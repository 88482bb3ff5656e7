package native

import (
	"testing"

	"github.com/godbbench/godbbench/options"
)

// TestUnsupportedNamesAreOptions checks that every name the engine warns
// about is an option key (options.Spec.Key), so no warning is lost to a
// misspelling or to an option's other name.
func TestUnsupportedNamesAreOptions(t *testing.T) {
	for _, n := range unsupported {
		if options.Lookup(n) == nil {
			t.Errorf("%q is not an option key", n)
		}
	}
}
