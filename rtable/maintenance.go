package rtable

// ApproximateOffsetOf returns the file offset at which the value of the
// first entry whose user key is >= userKey starts, or the end of the value
// area when every key is below userKey: the position a range's bytes are
// counted from, as sst.Reader.ApproximateOffsetOf gives it for the block
// format. It reads the keys section and, for values of varying length, the
// value offsets; it allocates nothing.
func (r *Reader) ApproximateOffsetOf(userKey []byte) uint64 {
	i := r.lowerBound(userKey)
	if i >= r.m.entries {
		return r.m.dictBytes + r.m.valueAreaBytes
	}
	start, _, err := r.valueRange(i)
	if err != nil {
		return 0
	}
	return r.m.dictBytes + start
}

// VerifyValues checks every value group against its checksum (Open has
// checked every other section), returning the first damage found as an
// error wrapping ErrCorruption.
func (r *Reader) VerifyValues() error {
	groups := (r.m.entries + groupLen - 1) / groupLen
	for g := range groups {
		if err := r.verifyGroup(g); err != nil {
			return err
		}
	}
	return nil
}
