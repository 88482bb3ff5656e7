package sst

import (
	"io"
	"os"

	"github.com/godbbench/godbbench/internal/directio"
)

// readerAt is what a Reader reads f through: a fileReaderAt (pread on
// f's descriptor, pread_unix.go), also returned as fr to be closed with f,
// or, with ReaderOptions.Direct, a directio.ReaderAt, which reads the
// aligned blocks covering each range into a pooled aligned buffer and
// copies the range out (fr nil). Blocks read so bypass the page cache; the
// block cache is then the only cache of table blocks (RocksDB's
// use_direct_reads).
func readerAt(f *os.File, opts ReaderOptions) (ra io.ReaderAt, fr *fileReaderAt) {
	if opts.Direct && !opts.Mmap {
		return directio.NewReaderAt(f), nil
	}
	fr = newFileReaderAt(f)
	return fr, fr
}
