package sst

// Compressor compresses one value at a time with the compression it was
// made for, as table blocks are compressed (same encodings, same rule of
// storing a value raw when compressing saves less than 1/8). Other file
// formats (the blob files of package blob) use it so that a value stored
// compressed anywhere in a DB decodes the same way. A Compressor is not
// safe for concurrent use; its result is valid until the next call.
type Compressor struct{ c *compressor }

// NewCompressor returns a Compressor for kind.
func NewCompressor(kind Compression) (*Compressor, error) {
	c, err := newCompressor(kind, 0)
	if err != nil {
		return nil, err
	}
	return &Compressor{c: c}, nil
}

// Compress returns the bytes to store for raw and the compression they are
// stored in (CompressionNone when raw is stored as is).
func (c *Compressor) Compress(raw []byte) ([]byte, Compression) { return c.c.compress(raw) }

// DecodedLen returns the uncompressed length of stored, a value Compress
// returned with compression kind.
func DecodedLen(stored []byte, kind Compression) (int, error) { return decodedLen(stored, kind) }

// Decompress decodes stored into dst, which must be exactly DecodedLen
// bytes long.
func Decompress(dst, stored []byte, kind Compression) error { return decompress(dst, stored, kind) }
