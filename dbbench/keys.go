package dbbench

import "encoding/binary"

// KeyGen lays out db_bench keys (GenerateKeyFromInt): each key is exactly
// keySize bytes. Without a prefix, min(keySize, 8) low-order bytes of v are
// written big-endian and the rest is padded with '0' (0x30), so keys sort in
// numeric order: with 16-byte keys, 20000 is 00 00 00 00 00 00 4E 20 followed
// by eight 0x30 bytes. With keysPerPrefix K > 0 the key starts with
// prefix = v mod (num/K) big-endian in min(prefixSize, 8) bytes, '0' up to
// prefixSize, then v as above.
//
// Fill writes the whole key, padding included, in word stores where the
// layout allows; FillFast rewrites only the leading value bytes of a buffer
// Fill or NewBuf laid out.
type KeyGen struct {
	keySize       int
	prefixSize    int
	keysPerPrefix int64
	num           int64
	// existing holds the keys --use_existing_keys loaded, keySize bytes
	// each, back to back; key v is the v-th of them (existingkeys.go).
	existing []byte
}

// NewBuf returns a key buffer with the constant padding already in place.
func (g *KeyGen) NewBuf() []byte {
	b := make([]byte, g.keySize)
	for i := range b {
		b[i] = '0'
	}
	return b
}

// Fill writes key v into b (len(b) == keySize, made by NewBuf or padded).
func (g *KeyGen) Fill(b []byte, v int64) {
	if g.keysPerPrefix == 0 && g.existing == nil && len(b) >= 8 {
		// db_bench's common layout, in word stores: a fill of a 16-byte
		// key took 230 instructions byte by byte and takes 20 this way.
		binary.BigEndian.PutUint64(b, uint64(v))
		padWithZeroDigits(b[8:])
		return
	}
	if g.existing != nil {
		// Inline word copies keep Fill free of calls: a call here
		// would cost the common path above a stack frame.
		ks := len(b)
		i := int(uint64(v) % uint64(len(g.existing)/ks))
		src := g.existing[i*ks : (i+1)*ks]
		for len(b) >= 8 {
			binary.LittleEndian.PutUint64(b, binary.LittleEndian.Uint64(src))
			b, src = b[8:], src[8:]
		}
		for j := range b {
			b[j] = src[j]
		}
		return
	}
	pos := 0
	if g.keysPerPrefix > 0 {
		numPrefix := g.num / g.keysPerPrefix
		var prefix int64
		if numPrefix != 0 {
			// v mod numPrefix as unsigned, as db_bench's uint64_t v makes
			// it: mixgraph's power-distributed keys can be negative.
			prefix = int64(uint64(v) % uint64(numPrefix))
		}
		n := min(g.prefixSize, 8)
		for i := 0; i < n; i++ {
			b[i] = byte(uint64(prefix) >> (uint(n-i-1) * 8))
		}
		for i := 8; i < g.prefixSize; i++ {
			b[i] = '0'
		}
		pos = g.prefixSize
	}
	n := min(len(b)-pos, 8)
	for i := 0; i < n; i++ {
		b[pos+i] = byte(uint64(v) >> (uint(n-i-1) * 8))
	}
	padWithZeroDigits(b[pos+n:])
}

// zeroDigits8 is eight '0' (0x30) bytes as one word.
const zeroDigits8 = 0x3030303030303030

// padWithZeroDigits sets every byte of b to '0', a word at a time.
func padWithZeroDigits(b []byte) {
	for len(b) >= 8 {
		binary.LittleEndian.PutUint64(b, zeroDigits8)
		b = b[8:]
	}
	for i := range b {
		b[i] = '0'
	}
}

// FillFast writes v into a buffer that already holds a key made by Fill with
// the same layout; without prefixes only the leading value bytes change.
func (g *KeyGen) FillFast(b []byte, v int64) {
	if g.keysPerPrefix > 0 || len(b) < 8 || g.existing != nil {
		g.Fill(b, v)
		return
	}
	u := uint64(v)
	_ = b[7]
	b[0] = byte(u >> 56)
	b[1] = byte(u >> 48)
	b[2] = byte(u >> 40)
	b[3] = byte(u >> 32)
	b[4] = byte(u >> 24)
	b[5] = byte(u >> 16)
	b[6] = byte(u >> 8)
	b[7] = byte(u)
}
