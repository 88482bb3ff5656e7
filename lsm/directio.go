package lsm

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/godbbench/godbbench/internal/directio"
	"github.com/godbbench/godbbench/internal/ratelimit"
	"github.com/godbbench/godbbench/options"
)

// Direct I/O (package internal/directio):
//
//   - --use_direct_reads opens every block-format table for reading with
//     O_DIRECT and reads it through aligned buffers (sst
//     ReaderOptions.Direct): table blocks then live in the block cache
//     only, not the page cache. rtable tables, always mapped, and blob
//     files are read as before.
//   - --use_direct_io_for_flush_and_compaction creates flush and
//     compaction outputs (tables and blob files) with O_DIRECT and writes
//     them in aligned 1 MiB pieces; the last piece is padded with zeros
//     and the file truncated to its bytes (outputfile.go).
//
// Open refuses either with mmap reads or writes in RocksDB's words, and
// fails, as RocksDB does, when the DB directory's file system refuses
// O_DIRECT: "Invalid argument: Direct I/O is not supported by the
// specified DB." It never falls back to buffered I/O.

// directWriteBuffer is the bytes a direct output gathers between writes.
const directWriteBuffer = 1 << 20

// openDirect opens a file for direct reads; tests replace it to play a
// file system without O_DIRECT.
var openDirect = directio.Open

// createDirect creates a file for direct writes; tests replace it.
var createDirect = directio.Create

// checkDirectIOOptions refuses the combinations RocksDB refuses
// (DBImpl::ValidateOptions). MmapWrite is the caller's flag: engine/native
// maps the WAL whatever --mmap_write says and checks the flag itself.
func checkDirectIOOptions(o *options.Options) error {
	if o.MmapRead && o.UseDirectReads {
		return errors.New("Not implemented: If memory mapped reads (allow_mmap_reads) are enabled then direct I/O reads (use_direct_reads) must be disabled. ")
	}
	return nil
}

// ErrMmapWritesAndDirectIO is RocksDB's refusal of --mmap_write with
// --use_direct_io_for_flush_and_compaction.
var ErrMmapWritesAndDirectIO = errors.New("Not implemented: If memory mapped writes (allow_mmap_writes) are enabled then direct I/O writes (use_direct_io_for_flush_and_compaction) must be disabled. ")

// probeDirectIO fails the open when direct I/O is asked for and the DB
// directory's file system refuses it: it opens the file name of the DB
// directory (LOCK, or CURRENT for a read-only open, which takes no lock)
// with O_DIRECT, as RocksDB opens CURRENT, and, when that fails, without.
func (db *DB) probeDirectIO(name string) error {
	o := db.opts
	if !o.UseDirectReads && !o.UseDirectIOForFlushAndCompaction {
		return nil
	}
	name = filepath.Join(db.dir, name)
	f, err := openDirect(name)
	if err == nil {
		return f.Close()
	}
	plain, perr := os.Open(name)
	if perr != nil {
		return fmt.Errorf("Invalid argument: Found options incompatible with filesystem: %w", err)
	}
	plain.Close()
	return errors.New("Invalid argument: Direct I/O is not supported by the specified DB.")
}

// openTableForRead opens a table file for reading, with O_DIRECT under
// --use_direct_reads, and returns what its footer is read through.
func (db *DB) openTableForRead(name string) (*os.File, io.ReaderAt, bool, error) {
	if !db.opts.UseDirectReads || db.opts.MmapRead {
		f, err := db.fs.OpenReadOnly(name)
		return f, f, false, err
	}
	f, err := openDirect(name)
	if err := db.countOpened(err); err != nil {
		return nil, nil, false, err
	}
	return f, directio.NewReaderAt(f), true, nil
}

// createDirectOutput creates a flush or compaction output for direct
// writes: an outputFile over a directio.Writer, whose Sync writes the
// padded tail and truncates before it syncs.
func (db *DB) createDirectOutput(name string, pri ratelimit.Priority) (WritableFile, error) {
	f, err := createDirect(name)
	if err != nil {
		return nil, err
	}
	w := directio.NewWriter(f, directWriteBuffer)
	// No range syncs: a direct write leaves no dirty pages.
	return &outputFile{WritableFile: w, io: &db.io, pri: pri, os: f, direct: w}, nil
}
