package lsm

import (
	"os"

	"github.com/godbbench/godbbench/internal/directio"
	"github.com/godbbench/godbbench/internal/ratelimit"
)

// createOutput creates the file name for a flush (pri High) or compaction
// (pri Low) to write.
func (db *DB) createOutput(name string, pri ratelimit.Priority) (WritableFile, error) {
	if db.opts.UseDirectIOForFlushAndCompaction {
		out, err := db.createDirectOutput(name, pri)
		if err != nil {
			return nil, err
		}
		return db.countCreated(out, db.io.useFsync), nil
	}
	f, err := db.fs.Create(name)
	if err != nil {
		return nil, err
	}
	if !db.io.writesLimited() && db.io.bytesPerSync == 0 && db.io.useFsync {
		return f, nil // *os.File's Sync is fsync already
	}
	f, recount := uncounted(f)
	osf, _ := f.(*os.File)
	out := &outputFile{WritableFile: f, io: &db.io, pri: pri, os: osf}
	out.ranges = rangeSyncer{f: osf, every: db.io.bytesPerSync}
	return recount(out, db.io.useFsync), nil
}

// outputFile is a table or blob file a flush or compaction writes under
// fileIO's rules.
type outputFile struct {
	WritableFile
	io  *fileIO
	pri ratelimit.Priority
	// os is the file for range syncs and fdatasync; nil when the file is
	// not an *os.File (a test's fault-injecting file): then no range
	// syncs, and Sync is the file's own.
	os     *os.File
	direct *directio.Writer // the writer of a direct output, else nil
	// ranges hands written bytes to writeback (--bytes_per_sync); its
	// file is nil for direct outputs, which have no dirty pages.
	ranges rangeSyncer
}

// Write writes p a granted burst at a time.
func (f *outputFile) Write(p []byte) (int, error) {
	var l *ratelimit.Limiter
	if f.io.writesLimited() {
		l = f.io.limiter
	}
	written, err := writeGranted(f.WritableFile, p, l, f.pri)
	if err != nil {
		return written, err
	}
	return written, f.ranges.wrote(written)
}

// Sync makes the file durable: fsync with --use_fsync, else fdatasync.
func (f *outputFile) Sync() error {
	if f.os == nil {
		return f.WritableFile.Sync()
	}
	if f.direct != nil {
		if err := f.direct.Flush(); err != nil {
			return err
		}
	}
	return syncFile(f.os, f.io.useFsync)
}
