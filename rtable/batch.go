package rtable

import (
	"encoding/binary"
	"slices"
)

// AppendBatch copies a run of consecutive entries out of the table in one
// call, for a caller that must not keep pointers into the mapping (one that
// reads it under a fault guard and wants one guard per run, not per entry).
//
// Each entry becomes one batch record appended to dst:
//
//	offset 0:  trailer, u64 little endian (seq<<8 | kind)
//	offset 8:  key length k, u32 little endian
//	offset 12: value length v, u32 little endian (0 without values)
//	offset 16: the user key, k bytes
//	offset 16+k: the value, v bytes, decoded (as Value returns it)
//
// BatchRecordHeader is the 16 bytes before the key.
const BatchRecordHeader = 16

// BatchOptions bound one AppendBatch call.
type BatchOptions struct {
	// MaxEntries is the most records to append (at least one is).
	MaxEntries int
	// MaxBytes stops the batch once the records appended reach it.
	MaxBytes int
	// Reverse walks toward lower ordinals (Prev), else higher (Next).
	Reverse bool
	// Values copies the values; without it value lengths are 0 and no
	// value page is read.
	Values bool
}

// AppendBatch appends the records of the current entry and the entries
// after it in o's direction, as the moves Next (or Prev) would reach them,
// and leaves the iterator on the last entry appended. n is the number of
// records appended (0 on an invalid iterator); more reports that an entry
// follows the last one in o's direction.
//
// A value that cannot be loaded ends the batch at its entry: the record is
// appended with an empty value and valErr is that entry's Value error; the
// iterator stays valid there. AppendBatch allocates only when dst must
// grow.
func (t *Iter) AppendBatch(dst []byte, o BatchOptions) (out []byte, n int, more bool, valErr error) {
	if !t.Valid() {
		return dst, 0, false, nil
	}
	r := t.r
	if !o.Values && r.m.keyMode == keysPacked {
		dst, n, more = t.appendPackedKeys(dst, o)
		return dst, n, more, nil
	}
	step, end := int64(1), t.n()
	if o.Reverse {
		step, end = -1, -1
	}
	start := len(dst)
	for pos := t.pos; ; pos += step {
		t.pos = pos
		i := uint64(pos)
		h := len(dst)
		dst = slices.Grow(dst, BatchRecordHeader+int(r.m.keyLen))
		dst = binary.LittleEndian.AppendUint64(dst, uint64(r.trailer(i)))
		dst = dst[:h+BatchRecordHeader]
		dst = r.appendKey(dst, i)
		binary.LittleEndian.PutUint32(dst[h+8:], uint32(len(dst)-h-BatchRecordHeader))
		vs := len(dst)
		if o.Values {
			dst, valErr = r.appendValue(dst, i, &t.valueBuf)
			if valErr != nil {
				dst = dst[:vs]
			}
		}
		binary.LittleEndian.PutUint32(dst[h+12:], uint32(len(dst)-vs))
		n++
		more = pos+step != end
		if valErr != nil || !more || n >= o.MaxEntries || len(dst)-start >= o.MaxBytes {
			return dst, n, more, valErr
		}
	}
}

// appendValue appends value i, decoded, to dst; scratch is a buffer for
// the codecs that cannot decode in place at dst's end.
func (r *Reader) appendValue(dst []byte, i uint64, scratch *[]byte) ([]byte, error) {
	b, err := r.value(i)
	if err != nil {
		return dst, err
	}
	switch {
	case r.m.valueCodec == uint64(ValueRaw) || len(b) == 0:
		return append(dst, b...), nil
	case r.m.valueCodec == uint64(ValueDict):
		n := len(dst)
		out, what := decodeDictValue(dst, b, r.dict)
		if what != "" {
			return out[:n], r.badValue(i, what)
		}
		return out, nil
	}
	v, err := r.decodeValue(b, i, scratch)
	if err != nil {
		return dst, err
	}
	return append(dst, v...), nil
}

// appendPackedKeys is AppendBatch without values on a table of packed
// keys, where every record has the same size (BatchRecordHeader + keyLen)
// and differs from the others only in its trailer and the key's varying
// part: it works out how many records the batch takes, grows dst once and
// writes each record with 8-byte stores (packedRecord), no copy call per
// record.
func (t *Iter) appendPackedKeys(dst []byte, o BatchOptions) (out []byte, n int, more bool) {
	r := t.r
	rec := newPackedRecord(r.m.prefix, r.m.suffix, int(r.m.keyWidth))
	size := BatchRecordHeader + rec.keyLen
	n, step, left := t.runLength(o, size)
	start := len(dst)
	dst = slices.Grow(dst, n*size+packedSlack)
	b := dst[start : start+n*size+packedSlack]
	pos := t.pos
	for range n {
		i := uint64(pos)
		rec.put(b, uint64(r.trailer(i)), r.packedKey(i))
		b = b[size:]
		pos += step
	}
	t.pos = pos - step
	return dst[:start+n*size], n, int64(n) < left
}

// runLength is the number of records of size bytes each that a batch
// from the current entry takes under o (AppendBatch's stops: MaxEntries
// records, or the first record that takes the batch to MaxBytes, and at
// least one record, within the table), the step between their ordinals,
// and the number of entries from the current one on in o's direction.
func (t *Iter) runLength(o BatchOptions, size int) (n int, step, left int64) {
	step, left = 1, t.n()-t.pos
	if o.Reverse {
		step, left = -1, t.pos+1
	}
	byBytes := 1
	if o.MaxBytes > 0 {
		byBytes = (o.MaxBytes-1)/size + 1
	}
	n = max(1, min(o.MaxEntries, byBytes))
	return int(min(int64(n), left)), step, left
}

// packedSlack is the room packedRecord's stores need past a record's end:
// the last 8-byte store may run up to 8 bytes past it (into the next
// record, whose own stores then overwrite those bytes, or into this
// slack).
const packedSlack = 8

// packedRecord writes the batch records of a table of packed keys. A key is
// prefix + the w varying bytes (big endian) + suffix; the record is the
// trailer, the key length and a zero value length, then the key (put), or
// the key alone (putKey). A key of at most 8 bytes is one big endian word,
// the fixed bytes with the varying part or'ed in, written with one store.
// A longer one is written, in order: the prefix as one word when it fits
// in 8 bytes (the varying part's store then overwrites what ran past it);
// the varying part and the first 8-w bytes of the suffix as one big endian
// word; the rest of the suffix as one word when it fits. Longer prefixes
// and suffixes are copied.
type packedRecord struct {
	keyLen  int
	lengths uint64 // the key length, then a value length of 0
	// short: the key fits in a word, keyWord with the varying part
	// shifted left by wordShift.
	short     bool
	keyWord   uint64
	wordShift uint
	at        int  // the varying part's offset in the key
	shift     uint // 64 - 8w: moves the varying part to the word's top
	// prefixWord is the prefix as a little endian word (prefixLong: the
	// prefix is longer than 8 bytes and copied instead).
	prefix     []byte
	prefixWord uint64
	prefixLong bool
	// tail is the suffix's first 8-w bytes, the low bytes of the varying
	// part's word; rest the suffix after them, as a little endian word
	// (restLong: longer than 8 bytes and copied instead).
	tail     uint64
	rest     []byte
	restWord uint64
	restLong bool
}

func newPackedRecord(prefix, suffix []byte, w int) packedRecord {
	kl := len(prefix) + w + len(suffix)
	p := packedRecord{
		keyLen: kl, at: len(prefix), shift: 64 - 8*uint(w),
		prefix: prefix, prefixLong: len(prefix) > 8, short: kl <= 8,
	}
	p.lengths = uint64(kl)
	if p.short {
		var word [8]byte
		copy(word[:], prefix)
		copy(word[len(prefix)+w:], suffix)
		p.keyWord = binary.BigEndian.Uint64(word[:])
		p.wordShift = 8 * uint(8-len(prefix)-w)
	}
	p.prefixWord = wordOf(prefix)
	head := suffix[:min(len(suffix), 8-w)]
	for j, c := range head {
		p.tail |= uint64(c) << (8 * uint(8-w-1-j))
	}
	p.rest = suffix[len(head):]
	p.restWord, p.restLong = wordOf(p.rest), len(p.rest) > 8
	return p
}

// wordOf is b's first 8 bytes (fewer: zero filled) as a little endian word.
func wordOf(b []byte) uint64 {
	var w [8]byte
	copy(w[:], b)
	return binary.LittleEndian.Uint64(w[:])
}

// put writes the record of an entry with trailer and varying part v at the
// start of b, which has room for the record and packedSlack bytes.
func (p *packedRecord) put(b []byte, trailer, v uint64) {
	binary.LittleEndian.PutUint64(b, trailer)
	binary.LittleEndian.PutUint64(b[8:], p.lengths)
	p.putKey(b[BatchRecordHeader:], v)
}

// putKey writes the key with varying part v at the start of b, which has
// room for the key and packedSlack bytes.
func (p *packedRecord) putKey(b []byte, v uint64) {
	if p.short {
		binary.BigEndian.PutUint64(b, p.keyWord|v<<p.wordShift)
		return
	}
	if p.prefixLong {
		copy(b, p.prefix)
	} else {
		binary.LittleEndian.PutUint64(b, p.prefixWord)
	}
	binary.BigEndian.PutUint64(b[p.at:], v<<p.shift|p.tail)
	if p.restLong {
		copy(b[p.at+8:], p.rest)
	} else if len(p.rest) > 0 {
		binary.LittleEndian.PutUint64(b[p.at+8:], p.restWord)
	}
}
