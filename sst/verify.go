package sst

// VerifyBlocks reads every data block pair of the table from the file
// (never from the block cache or the mapping, so what is checked is the
// bytes on disk) and checks the checksums of the key block and of the value
// block against their trailers. Together with Open, which checks the
// footer and the properties, index and filter blocks, it checks every
// checksummed byte of the table: RocksDB's VerifySstFileChecksum. The
// first mismatch is returned as an error wrapping ErrCorruption that names
// the file and the block's offset.
func (r *Reader) VerifyBlocks() error {
	var buf []byte
	for i := range r.blocks.len() {
		d := r.blocks.at(i)
		size := int(r.pairEnd(i) - d.offset)
		if cap(buf) < size {
			buf = make([]byte, size)
		}
		pair := buf[:size]
		if err := r.readAt(pair, d.offset); err != nil {
			return err
		}
		if err := r.checkBlock(pair, handle{Offset: d.offset, Len: d.keyLen}); err != nil {
			return err
		}
		value := pair[d.keyLen+blockTrailerLen:]
		if err := r.checkBlock(value, handle{Offset: d.valueOffset(), Len: d.valueLen}); err != nil {
			return err
		}
	}
	return nil
}
