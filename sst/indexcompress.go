package sst

// readIndexBlock reads and checks the index block, which a table written
// with CompressIndex may store compressed, and returns its uncompressed
// bytes. Open decodes them once; nothing keeps them after that.
func (r *Reader) readIndexBlock(h handle) ([]byte, error) {
	stored, kind, err := r.readCheckedMeta(h)
	if err != nil {
		return nil, err
	}
	if kind == CompressionNone {
		return stored, nil
	}
	n, err := decodedLen(stored, kind)
	if err != nil {
		return nil, corruptf(r.name, h.Offset, "index block: %v", err)
	}
	out := make([]byte, n)
	if err := decompress(out, stored, kind); err != nil {
		return nil, corruptf(r.name, h.Offset, "index block: decompress: %v", err)
	}
	return out, nil
}
