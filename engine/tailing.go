package engine

// NewTailingIter is a tailing iterator (RocksDB's ReadOptions::tailing)
// for an engine whose iterators are point-in-time views: every
// positioning call (First, Last, SeekGE, SeekLE) closes the current view
// and opens a new one with open, so it sees every write made before that
// call; Next and Prev move within the view. It costs an iterator
// creation per seek, where RocksDB's tailing iterator reuses its state.
// Bytes handed out are valid until the next move, as for any Iterator.
func NewTailingIter(open func() (Iterator, error)) Iterator {
	return &tailingIter{open: open}
}

// ViewOptions returns o for the views of a tailing iterator: a copy with
// its bounds copied (the caller may reuse its slices once NewIter
// returns; nil stays nil) and Tailing off.
func (o *IterOptions) ViewOptions() *IterOptions {
	v := *o
	v.Tailing = false
	if o.LowerBound != nil {
		v.LowerBound = append([]byte{}, o.LowerBound...)
	}
	if o.UpperBound != nil {
		v.UpperBound = append([]byte{}, o.UpperBound...)
	}
	return &v
}

type tailingIter struct {
	open func() (Iterator, error)
	cur  Iterator // nil before the first positioning call and after a failed open
	err  error    // a failed open's error, until the next positioning call
}

// reopen replaces the view; false when the open failed.
func (t *tailingIter) reopen() bool {
	if t.cur != nil {
		if err := t.cur.Close(); err != nil {
			t.cur, t.err = nil, err
			return false
		}
		t.cur = nil
	}
	t.cur, t.err = t.open()
	if t.err != nil {
		t.cur = nil
		return false
	}
	return true
}

func (t *tailingIter) First() bool { return t.reopen() && t.cur.First() }
func (t *tailingIter) Last() bool  { return t.reopen() && t.cur.Last() }

func (t *tailingIter) SeekGE(key []byte) bool { return t.reopen() && t.cur.SeekGE(key) }
func (t *tailingIter) SeekLE(key []byte) bool { return t.reopen() && t.cur.SeekLE(key) }

func (t *tailingIter) Next() bool  { return t.cur != nil && t.cur.Next() }
func (t *tailingIter) Prev() bool  { return t.cur != nil && t.cur.Prev() }
func (t *tailingIter) Valid() bool { return t.cur != nil && t.cur.Valid() }
func (t *tailingIter) Key() []byte { return t.cur.Key() }

func (t *tailingIter) Value() ([]byte, error) { return t.cur.Value() }

func (t *tailingIter) Error() error {
	if t.err != nil {
		return t.err
	}
	if t.cur != nil {
		return t.cur.Error()
	}
	return nil
}

func (t *tailingIter) Close() error {
	if t.cur == nil {
		return nil
	}
	err := t.cur.Close()
	t.cur = nil
	return err
}
