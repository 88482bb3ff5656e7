package flags

import (
	"fmt"
	"io"
	"math"

	"github.com/godbbench/godbbench/internal/gflags"
)

// The validators db_bench 7.8.3 registers. Each prints db_bench's own message
// (byte for byte, trailing space included) before gflags' ERROR line.

func validatePercent(w io.Writer, name string, v int32) bool {
	if v <= 0 || v >= 100 {
		fmt.Fprintf(w, "Invalid value for --%s: %d, 0< pct <100 \n", name, v)
		return false
	}
	return true
}

func validateCacheNumshardbits(w io.Writer, name string, v int32) bool {
	if v >= 20 {
		fmt.Fprintf(w, "Invalid value for --%s: %d, must be < 20\n", name, v)
		return false
	}
	return true
}

func validateTableCacheNumshardbits(w io.Writer, name string, v int32) bool {
	if v <= 0 || v >= 20 {
		fmt.Fprintf(w, "Invalid value for --%s: %d, must be  0 < val < 20\n", name, v)
		return false
	}
	return true
}

func validatePrefixSize(w io.Writer, name string, v int32) bool {
	if v < 0 || v >= 2000000000 {
		fmt.Fprintf(w, "Invalid value for --%s: %d. 0<= PrefixSize <=2000000000\n", name, v)
		return false
	}
	return true
}

func validateUint32Range(w io.Writer, name string, v uint64) bool {
	if v > math.MaxUint32 {
		fmt.Fprintf(w, "Invalid value for --%s: %d, overflow\n", name, v)
		return false
	}
	return true
}

// attachValidators registers the validators on the db_bench flags; the
// flags and types are fixed by the generated table, so a failure is a bug.
func attachValidators(fs *gflags.FlagSet) {
	for name, fn := range map[string]any{
		"readwritepercent":         validatePercent,
		"deletepercent":            validatePercent,
		"cache_numshardbits":       validateCacheNumshardbits,
		"table_cache_numshardbits": validateTableCacheNumshardbits,
		"prefix_size":              validatePrefixSize,
		"subcompactions":           validateUint32Range,
	} {
		if err := fs.SetValidator(name, fn); err != nil {
			panic(err)
		}
	}
}
