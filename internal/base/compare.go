package base

import "bytes"

// CompareTrailers orders two trailers of the same user key as internal keys
// are ordered: the higher (newer) trailer first. It returns -1 when a sorts
// before b, +1 when after, 0 when equal.
func CompareTrailers(a, b Trailer) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// Compare orders internal keys (aKey, aTrailer) and (bKey, bTrailer): user
// key ascending, then trailer descending. It returns -1, 0 or +1.
func Compare(aKey []byte, aTrailer Trailer, bKey []byte, bTrailer Trailer) int {
	if c := bytes.Compare(aKey, bKey); c != 0 {
		return c
	}
	return CompareTrailers(aTrailer, bTrailer)
}
