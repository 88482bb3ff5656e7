package base

import "encoding/binary"

// KeyPrefix packs a user key's first 8 bytes big-endian, zero-padded. Keys
// whose prefixes differ compare (bytewise) as their prefixes do; a shorter
// key pads with zeros and is then a proper prefix of the other, hence
// smaller. Equal prefixes need a full comparison.
func KeyPrefix(key []byte) uint64 {
	if len(key) >= 8 {
		return binary.BigEndian.Uint64(key)
	}
	var p uint64
	for i, c := range key {
		p |= uint64(c) << (56 - 8*i)
	}
	return p
}
