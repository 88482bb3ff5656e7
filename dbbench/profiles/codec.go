package profiles

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// recordFields is the number of '|'-separated fields of a stored record.
const recordFields = 9

// ErrBadRecord is wrapped by every DecodeRecord error.
var ErrBadRecord = errors.New("profiles: malformed profile record")

// AppendRecord appends p's stored text form (see the package comment) to dst.
func AppendRecord(dst []byte, p *Profile) []byte {
	dst = strconv.AppendInt(dst, p.UserID, 10)
	dst = append(dst, '|')
	dst = append(dst, p.Email...)
	dst = append(dst, '|')
	dst = append(dst, p.Country...)
	dst = append(dst, '|')
	dst = append(dst, p.Status...)
	dst = append(dst, '|')
	dst = strconv.AppendInt(dst, p.CreatedAt, 10)
	dst = append(dst, '|')
	dst = strconv.AppendInt(dst, p.LastLogin, 10)
	dst = append(dst, '|')
	dst = strconv.AppendInt(dst, int64(p.Reputation), 10)
	dst = append(dst, '|')
	dst = append(dst, p.DisplayName...)
	dst = append(dst, '|')
	return append(dst, p.Bio...)
}

// DecodeRecord parses a stored record into p, copying every byte it keeps (src
// may be an engine buffer valid only during a callback). Like the reference's
// Split('|', 9), the ninth field (Bio) takes the rest of the record, '|'
// included. Numbers are optionally signed decimal integers without spaces.
// A record with fewer than nine fields or a bad number gives an error
// wrapping ErrBadRecord; p is then partly overwritten.
func DecodeRecord(p *Profile, src []byte) error {
	var fields [recordFields][]byte
	rest := src
	for i := 0; i < recordFields-1; i++ {
		j := bytes.IndexByte(rest, '|')
		if j < 0 {
			return fmt.Errorf("%w: %d fields, want %d", ErrBadRecord, i+1, recordFields)
		}
		fields[i] = rest[:j]
		rest = rest[j+1:]
	}
	fields[recordFields-1] = rest

	var err error
	if p.UserID, err = parseDecimal(fields[0], math.MinInt64, math.MaxInt64); err != nil {
		return fmt.Errorf("%w: user id: %v", ErrBadRecord, err)
	}
	if p.CreatedAt, err = parseDecimal(fields[4], math.MinInt64, math.MaxInt64); err != nil {
		return fmt.Errorf("%w: created at: %v", ErrBadRecord, err)
	}
	if p.LastLogin, err = parseDecimal(fields[5], math.MinInt64, math.MaxInt64); err != nil {
		return fmt.Errorf("%w: last login: %v", ErrBadRecord, err)
	}
	rep, err := parseDecimal(fields[6], math.MinInt32, math.MaxInt32)
	if err != nil {
		return fmt.Errorf("%w: reputation: %v", ErrBadRecord, err)
	}
	p.Reputation = int32(rep)
	p.Email = append(p.Email[:0], fields[1]...)
	p.Country = append(p.Country[:0], fields[2]...)
	p.Status = append(p.Status[:0], fields[3]...)
	p.DisplayName = append(p.DisplayName[:0], fields[7]...)
	p.Bio = append(p.Bio[:0], fields[8]...)
	return nil
}

// errNumber and errRange are the causes parseDecimal reports; they are
// preallocated so a failed parse does not allocate before wrapping.
var (
	errNumber = errors.New("not a decimal integer")
	errRange  = errors.New("out of range")
)

// parseDecimal parses an optionally signed decimal integer in [lo, hi]
// without allocating (strconv.ParseInt needs a string).
func parseDecimal(b []byte, lo, hi int64) (int64, error) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, errNumber
	}
	// Accumulate the magnitude in uint64; the most negative int64 has a
	// magnitude one larger than the most positive.
	limit := uint64(hi)
	if neg {
		limit = uint64(-(lo + 1)) + 1
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, errNumber
		}
		d := uint64(c - '0')
		if u > (limit-d)/10 {
			return 0, errRange
		}
		u = u*10 + d
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}
