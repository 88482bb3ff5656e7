package directio

import (
	"io"
	"os"
	"sync"
)

// ReaderAt reads a file opened with Open at any offset and length: it
// reads the aligned blocks covering the range into a pooled aligned
// buffer and copies the range out, so that a read allocates nothing once
// the pool holds a buffer of its size. It is safe for concurrent use.
type ReaderAt struct {
	f    *os.File
	bufs sync.Pool // *[]byte, aligned
}

// NewReaderAt returns a ReaderAt of f.
func NewReaderAt(f *os.File) *ReaderAt { return &ReaderAt{f: f} }

// ReadAt reads len(p) bytes at off, as io.ReaderAt: fewer only at the end
// of the file, with io.EOF.
func (r *ReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	start := alignDown(off)
	end := alignUp(off + int64(len(p)))
	bp, _ := r.bufs.Get().(*[]byte)
	if bp == nil || int64(len(*bp)) < end-start {
		b := AlignedBuffer(int(end - start))
		bp = &b
	}
	buf := (*bp)[:end-start]
	// At the end of the file the read is short; ReadAt then says io.EOF.
	n, err := r.f.ReadAt(buf, start)
	got := 0
	if int64(n) > off-start {
		got = copy(p, buf[off-start:n])
	}
	r.bufs.Put(bp)
	if got == len(p) {
		return got, nil
	}
	if err == nil {
		err = io.EOF
	}
	return got, err
}
