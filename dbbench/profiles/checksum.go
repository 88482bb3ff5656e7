package profiles

import (
	"fmt"
	"unicode/utf8"
)

const (
	// fnvOffset and fnvPrime are the 64-bit FNV-1a parameters.
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

// Checksum is ZoneTree's benchmark checksum: FNV-1a over 64-bit words, not
// bytes. Each word w updates the state as state = (state ^ w) * prime. An
// int64 is one word, an int32 is zero-extended from its uint32 bits, and text
// is one word per UTF-16 code unit. It is order dependent on purpose: an
// engine must return the same items in the same order.
//
// The zero value is not ready; start from NewChecksum.
type Checksum struct {
	state uint64
}

// NewChecksum returns an empty checksum (the FNV offset basis).
func NewChecksum() Checksum { return Checksum{state: fnvOffset} }

// Sum returns the current 64-bit value.
func (c *Checksum) Sum() uint64 { return c.state }

// Hex returns the value as 16 upper-case hex digits, as the reference prints it.
func (c *Checksum) Hex() string { return FormatChecksum(c.state) }

// FormatChecksum formats a checksum value as 16 upper-case hex digits.
func FormatChecksum(v uint64) string { return fmt.Sprintf("%016X", v) }

// addWord folds one 64-bit word.
func (c *Checksum) addWord(w uint64) {
	c.state = (c.state ^ w) * fnvPrime
}

// AddInt64 folds an int64 as one word.
func (c *Checksum) AddInt64(v int64) { c.addWord(uint64(v)) }

// AddInt32 folds an int32 zero-extended from its 32 bits.
func (c *Checksum) AddInt32(v int32) { c.addWord(uint64(uint32(v))) }

// AddText folds UTF-8 text as its UTF-16 code units, one word each. ASCII (all
// the workload produces) takes the fast path; other text is decoded rune by
// rune, with invalid bytes read as U+FFFD each.
func (c *Checksum) AddText(s []byte) {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			c.addWord(uint64(b))
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			c.addWord(uint64(0xD800 + (r >> 10)))
			c.addWord(uint64(0xDC00 + (r & 0x3FF)))
			continue
		}
		c.addWord(uint64(r))
	}
}

// AddString is AddText for a string.
func (c *Checksum) AddString(s string) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			c.AddText([]byte(s[i:]))
			return
		}
		c.addWord(uint64(s[i]))
	}
}

// AddProfile folds UserID, Email, Country, Status, CreatedAt, LastLogin and
// Reputation in that order. DisplayName and Bio are not part of the checksum.
func (c *Checksum) AddProfile(p *Profile) {
	c.AddInt64(p.UserID)
	c.AddText(p.Email)
	c.AddText(p.Country)
	c.AddText(p.Status)
	c.AddInt64(p.CreatedAt)
	c.AddInt64(p.LastLogin)
	c.AddInt32(p.Reputation)
}

// WorkerChecksum is one worker's part of a phase checksum. Active is false for
// a worker that had no operations; such workers do not take part in merging.
type WorkerChecksum struct {
	Active bool
	Sum    uint64
}

// MergeChecksums combines per-worker checksums as the reference does: when
// exactly one worker had work, its value is the phase checksum; otherwise a
// fresh checksum folds the 16 hex characters of every active worker's value,
// in worker order. So checksums differ between thread counts.
func MergeChecksums(parts []WorkerChecksum) uint64 {
	active := 0
	last := uint64(0)
	for _, p := range parts {
		if p.Active {
			active++
			last = p.Sum
		}
	}
	if active == 1 {
		return last
	}
	c := NewChecksum()
	var hex [16]byte
	for _, p := range parts {
		if !p.Active {
			continue
		}
		for i := 0; i < 16; i++ {
			hex[i] = "0123456789ABCDEF"[(p.Sum>>(60-4*uint(i)))&0xF]
		}
		c.AddText(hex[:])
	}
	return c.Sum()
}
