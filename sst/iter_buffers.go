package sst

import "sync"

// iterBuffers are the file-read scratch buffers of an Iter: the buffers
// blocks read without the cache are decoded into, the pread buffer, and
// the pair buffer. They outlive the Iter in iterBufferPool.
//
// Why: db_bench's seekrandom (and any short scan) builds a new iterator per
// operation, and each new Iter that missed the cache made its pread buffer
// (maxStored bytes, about 2 KiB for 4 KiB pairs) and, for a value, another:
// on fillrandom,overwrite,seekrandom at --num=1000000 makeslice and the
// zeroing of the new buffers were 12% of seekrandom's CPU profile.
//
// They also carry the pair buffer's count of reads (pairBuf.reads), so
// that an iterator made per seek still counts toward the one load in
// admitSample that a full cache may admit (cache_admission.go): a count
// starting afresh would put every seek's first load in the sample.
type iterBuffers struct {
	keyBuf, valueBuf, tmp, pair []byte
	pairReads                   uint32
}

var iterBufferPool = sync.Pool{New: func() any { return new(iterBuffers) }}

// takeBuffers gives t pooled scratch buffers; they are empty until a read
// needs them and then keep their capacity.
func (t *Iter) takeBuffers() {
	b := iterBufferPool.Get().(*iterBuffers)
	t.keyBuf, t.valueBuf, t.tmp, t.pair.buf = b.keyBuf, b.valueBuf, b.tmp, b.pair
	t.pair.reads = b.pairReads
	*b = iterBuffers{}
	t.bufs = b
}

// returnBuffers hands t's scratch buffers back to the pool. t keeps none of
// them: a read after Close allocates its own rather than sharing another
// iterator's.
func (t *Iter) returnBuffers() {
	b := t.bufs
	if b == nil {
		return
	}
	t.bufs = nil
	b.keyBuf, b.valueBuf, b.tmp, b.pair = t.keyBuf[:0], t.valueBuf[:0], t.tmp[:0], t.pair.buf[:0]
	b.pairReads = t.pair.reads
	t.keyBuf, t.valueBuf, t.tmp, t.pair.buf = nil, nil, nil, nil
	iterBufferPool.Put(b)
}
