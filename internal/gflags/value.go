package gflags

import (
	"math"
	"strconv"
	"strings"
)

// Type is the value type of a flag.
type Type uint8

// The flag types gflags knows.
const (
	TypeBool Type = iota
	TypeInt32
	TypeUint32
	TypeInt64
	TypeUint64
	TypeDouble
	TypeString
)

var typeNames = [...]string{"bool", "int32", "uint32", "int64", "uint64", "double", "string"}

// String returns the gflags type name used in messages and help ("int64").
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "unknown"
}

// scalar is one parsed value of any flag type; only the field matching the
// flag's Type is meaningful.
type scalar struct {
	b bool
	i int64 // int32 and int64
	u uint64
	f float64
	s string
}

// parseValue converts text to a value of type t with gflags' rules; ok is
// false when gflags would call the value illegal.
func parseValue(t Type, text string) (v scalar, ok bool) {
	switch t {
	case TypeBool:
		v.b, ok = parseBool(text)
		return v, ok
	case TypeString:
		v.s = text
		return v, true
	}
	if text == "" { // only strings may be empty
		return v, false
	}
	switch t {
	case TypeInt32:
		v.i, ok = parseInt(text)
		ok = ok && v.i >= math.MinInt32 && v.i <= math.MaxInt32
	case TypeInt64:
		v.i, ok = parseInt(text)
	case TypeUint32:
		v.u, ok = parseUint(text)
		ok = ok && v.u <= math.MaxUint32
	case TypeUint64:
		v.u, ok = parseUint(text)
	case TypeDouble:
		v.f, ok = parseDouble(text)
	}
	return v, ok
}

// formatValue renders v as gflags' FlagValue::ToString does: %d, %llu,
// true/false, and %.17g for doubles.
func formatValue(t Type, v scalar) string {
	switch t {
	case TypeBool:
		if v.b {
			return "true"
		}
		return "false"
	case TypeInt32, TypeInt64:
		return strconv.FormatInt(v.i, 10)
	case TypeUint32, TypeUint64:
		return strconv.FormatUint(v.u, 10)
	case TypeDouble:
		return formatDouble(v.f)
	}
	return v.s
}

// formatDouble is C's "%.17g". Go's 'g' verb with precision 17 uses the same
// rule for choosing the exponent form and also drops trailing zeros, so the
// only differences are the spellings of the special values.
func formatDouble(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	}
	return strconv.FormatFloat(f, 'g', 17, 64)
}

// parseBool accepts exactly gflags' ten spellings, in any case.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "1", "t", "true", "y", "yes":
		return true, true
	case "0", "f", "false", "n", "no":
		return false, true
	}
	return false, false
}

// isCSpace is C's isspace in the "C" locale.
func isCSpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// hexBase reports whether gflags picks base 16: only a literal "0x"/"0X" at
// the very start of the text (no sign, no white space before it).
func hexBase(s string) bool {
	return len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
}

// digitsValue parses the digits of s in base 10 or 16 (all of s must be
// digits, at least one), returning overflow when the value passes 2^64-1.
func digitsValue(s string, hex bool) (v uint64, ok, overflow bool) {
	if s == "" {
		return 0, false, false
	}
	base := uint64(10)
	if hex {
		base = 16
	}
	for i := 0; i < len(s); i++ {
		d := digitValue(s[i])
		if d >= base {
			return 0, false, false
		}
		if v > (math.MaxUint64-d)/base {
			overflow = true
		}
		v = v*base + d
	}
	return v, true, overflow
}

func digitValue(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 99
}

// splitCNumber takes apart what strtoll/strtoull read before the digits:
// white space, an optional sign and, in base 16, the "0x" prefix.
func splitCNumber(s string, hex bool) (digits string, negative bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		negative = s[i] == '-'
		i++
	}
	if hex && i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && digitValue(s[i+2]) < 16 {
		i += 2
	}
	return s[i:], negative
}

// parseInt follows gflags' strtoll use: the whole text must be consumed and
// the value must fit in an int64.
func parseInt(s string) (int64, bool) {
	hex := hexBase(s)
	digits, neg := splitCNumber(s, hex)
	u, ok, overflow := digitsValue(digits, hex)
	if !ok || overflow {
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true // -(1<<63) wraps to MinInt64, as wanted
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// parseUint follows gflags' strtoull use: leading spaces (only ' ') are
// skipped, a '-' there is rejected, then strtoull runs; strtoull itself still
// accepts other white space and a sign, and negates modulo 2^64, exactly as
// the C library does ("\t-1" is 18446744073709551615). Text of spaces only
// is 0: strtoull converts nothing, and gflags' end-of-text check, made
// after the skip, passes.
func parseUint(s string) (uint64, bool) {
	hex := hexBase(s)
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return 0, true
	}
	if strings.HasPrefix(s, "-") {
		return 0, false
	}
	digits, neg := splitCNumber(s, hex)
	u, ok, overflow := digitsValue(digits, hex)
	if !ok || overflow {
		return 0, false
	}
	if neg {
		u = -u
	}
	return u, true
}

// parseDouble follows strtod: white space, sign, then a decimal or
// hexadecimal float, "inf"/"infinity" or "nan"/"nan(chars)", consuming the
// whole text. Results that overflow, or underflow to zero or a subnormal
// (where glibc sets ERANGE), are rejected as gflags does.
func parseDouble(s string) (float64, bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	body := s[i:]
	lower := strings.ToLower(body)
	var f float64
	switch {
	case lower == "inf" || lower == "infinity":
		f = math.Inf(1)
	case lower == "nan" || (strings.HasPrefix(lower, "nan(") && strings.HasSuffix(lower, ")") && nanChars(lower[4:len(lower)-1])):
		f = math.NaN()
	case hexBase(body):
		var ok bool
		if f, ok = parseHexFloat(body[2:]); !ok {
			return 0, false
		}
	default:
		var ok bool
		if f, ok = parseDecimalFloat(body); !ok {
			return 0, false
		}
	}
	if neg {
		f = -f
	}
	return f, true
}

func nanChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) {
			return false
		}
	}
	return true
}

// scanMantissa reads digits with at most one '.', reporting whether any digit
// was seen and whether any of them was non-zero.
func scanMantissa(s string, hex bool) (n int, any, nonzero bool) {
	dot := false
	for n < len(s) {
		c := s[n]
		switch {
		case c == '.' && !dot:
			dot = true
		case (hex && digitValue(c) < 16) || (!hex && c >= '0' && c <= '9'):
			any = true
			nonzero = nonzero || c != '0'
		default:
			return n, any, nonzero
		}
		n++
	}
	return n, any, nonzero
}

// scanExponent reads an exponent part starting with one of marks, followed by
// an optional sign and at least one decimal digit; n is 0 when there is none.
func scanExponent(s string, marks string) int {
	if s == "" || !strings.ContainsRune(marks, rune(s[0])) {
		return 0
	}
	i := 1
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start {
		return 0
	}
	return i
}

func parseDecimalFloat(s string) (float64, bool) {
	n, any, nonzero := scanMantissa(s, false)
	if !any {
		return 0, false
	}
	n += scanExponent(s[n:], "eE")
	if n != len(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && rangeOK(f, nonzero)
}

func parseHexFloat(s string) (float64, bool) {
	n, any, nonzero := scanMantissa(s, true)
	if !any {
		return 0, false
	}
	exp := scanExponent(s[n:], "pP")
	if n+exp != len(s) {
		return 0, false
	}
	text := "0x" + s
	if exp == 0 {
		text += "p0" // Go wants the binary exponent that C makes optional
	}
	f, err := strconv.ParseFloat(text, 64)
	return f, err == nil && rangeOK(f, nonzero)
}

// rangeOK rejects what glibc's strtod flags with ERANGE: results too small to
// be normal although the text was not zero.
func rangeOK(f float64, nonzero bool) bool {
	if !nonzero {
		return true
	}
	a := math.Abs(f)
	return a >= 0x1p-1022
}
