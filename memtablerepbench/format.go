package memtablerepbench

import (
	"math"
	"strconv"
)

// formatDouble formats x as `std::ostream << double` does with the default
// flags and precision 6, i.e. printf("%g"): 6 significant digits, trailing
// zeros removed, exponent form ("1.5e+07", at least two exponent digits)
// when the exponent is < -4 or >= 6, and glibc's "inf", "-inf", "nan".
func formatDouble(x float64) string {
	switch {
	case math.IsNaN(x):
		if math.Signbit(x) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	// Go's 'g' with precision 6 follows the same rules as C's %g, including
	// the two-digit minimum exponent.
	return strconv.FormatFloat(x, 'g', 6, 64)
}
