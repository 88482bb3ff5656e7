package dbbench

// KeyGen lays out db_bench keys (GenerateKeyFromInt): each key is exactly
// keySize bytes. Without a prefix, min(keySize, 8) low-order bytes of v are
// written big-endian and the rest is padded with '0' (0x30), so keys sort in
// numeric order: with 16-byte keys, 20000 is 00 00 00 00 00 00 4E 20 followed
// by eight 0x30 bytes. With keysPerPrefix K > 0 the key starts with
// prefix = v mod (num/K) big-endian in min(prefixSize, 8) bytes, '0' up to
// prefixSize, then v as above.
//
// Only the varying bytes are rewritten per call: the '0' padding is laid down
// once when the buffer is made, so Fill costs a handful of byte stores.
type KeyGen struct {
	keySize       int
	prefixSize    int
	keysPerPrefix int64
	num           int64
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
	pos := 0
	if g.keysPerPrefix > 0 {
		numPrefix := g.num / g.keysPerPrefix
		var prefix int64
		if numPrefix != 0 {
			prefix = v % numPrefix
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
	for i := pos + n; i < len(b); i++ {
		b[i] = '0'
	}
}

// FillFast writes v into a buffer that already holds a key made by Fill with
// the same layout; without prefixes only the leading value bytes change.
func (g *KeyGen) FillFast(b []byte, v int64) {
	if g.keysPerPrefix > 0 || len(b) < 8 {
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
