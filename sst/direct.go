package sst

import (
	"io"
	"os"

	"github.com/godbbench/godbbench/internal/directio"
)

// readerAt is what a Reader reads f through: f itself, or, with
// ReaderOptions.Direct, a directio.ReaderAt, which reads the aligned
// blocks covering each range into a pooled aligned buffer and copies the
// range out. Blocks read so bypass the page cache; the block cache is then
// the only cache of table blocks (RocksDB's use_direct_reads).
func readerAt(f *os.File, opts ReaderOptions) io.ReaderAt {
	if opts.Direct && !opts.Mmap {
		return directio.NewReaderAt(f)
	}
	return f
}
