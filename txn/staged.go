package txn

import "bytes"

// stagedWrites are a transaction's writes before Commit, kept so that its
// own reads see them: the keys and values in one reused buffer, found by
// a scan from the newest (transactions here write a few keys).
type stagedWrites struct {
	buf     []byte
	entries []stagedEntry
}

// stagedEntry is one staged write: key at buf[keyAt:valueAt], the value
// after it up to end; a delete has no value.
type stagedEntry struct {
	keyAt, valueAt, end int
	deleted             bool
}

func (w *stagedWrites) add(key, value []byte, deleted bool) {
	e := stagedEntry{keyAt: len(w.buf), deleted: deleted}
	w.buf = append(w.buf, key...)
	e.valueAt = len(w.buf)
	w.buf = append(w.buf, value...)
	e.end = len(w.buf)
	w.entries = append(w.entries, e)
}

// lookup returns the newest staged write of key: whether there is one,
// and its value (nil for a delete).
func (w *stagedWrites) lookup(key []byte) (value []byte, deleted, ok bool) {
	for i := len(w.entries) - 1; i >= 0; i-- {
		e := w.entries[i]
		if bytes.Equal(w.buf[e.keyAt:e.valueAt], key) {
			return w.buf[e.valueAt:e.end], e.deleted, true
		}
	}
	return nil, false, false
}

func (w *stagedWrites) reset() {
	w.buf = w.buf[:0]
	w.entries = w.entries[:0]
}
