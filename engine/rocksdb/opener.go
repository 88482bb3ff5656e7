//go:build rocksdb

package rocksdb

/*
#include <rocksdb/c.h>
#include "bridge.h"
#include "filecounters.h"
*/
import "C"

import (
	"io"
	"unsafe"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

func init() {
	engine.Register("rocksdb", Opener{})
}

// Opener opens RocksDB databases; it is registered as "rocksdb". The
// registered one gives each DB a statistics object of its own; one made by
// SharingStatistics counts every DB it opens in one (sharedstatistics.go).
type Opener struct {
	shared *sharedStatistics
}

var _ engine.Opener = Opener{}

// LibraryVersion returns the version of the linked RocksDB library, read
// from the library itself (GetRocksVersionAsString), e.g. "7.8.3".
func LibraryVersion() string {
	var buf [32]C.char
	C.gdb_version(&buf[0], C.size_t(len(buf)))
	return C.GoString((*C.char)(unsafe.Pointer(&buf[0])))
}

// Info implements engine.Opener.
func (Opener) Info() engine.Info {
	v := LibraryVersion()
	return engine.Info{Name: "rocksdb", Version: v, VersionLine: "RocksDB:    version " + v,
		SharedLibraries: SharedLibraries}
}

// SharedLibraries are librocksdb and the libraries it alone links (Debian's
// build): only this engine calls into them. libc, libm, libgcc_s and
// libpthread serve the Go runtime's cgo too and are not listed.
var SharedLibraries = []string{"librocksdb.so", "libstdc++.so", "libgflags.so",
	"libsnappy.so", "libbz2.so", "liblz4.so", "libzstd.so"}

// Open implements engine.Opener. Options the engine cannot apply are listed
// on warn.
func (op Opener) Open(dir string, opts *options.Options, warn io.Writer) (engine.DB, error) {
	if opts == nil {
		opts = options.Default()
	}
	if warn == nil {
		warn = io.Discard
	}
	if err := options.CheckBlockTableFormat(opts, "rocksdb"); err != nil {
		return nil, err
	}
	cfg, err := buildConfig(opts, warn, op.shared)
	if err != nil {
		return nil, err
	}
	d, err := openDB(dir, cfg, opts, warn)
	if err != nil {
		cfg.destroy()
		return nil, err
	}
	if err := d.startBlockCacheTrace(opts); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Destroy implements engine.Opener with RocksDB's DestroyDB, which also
// removes the WAL files in opts.WALDir.
func (Opener) Destroy(dir string, opts *options.Options) error {
	o := options.Default()
	if opts != nil {
		o.WALDir = opts.WALDir
	}
	cfg := &config{opts: C.rocksdb_options_create()}
	defer cfg.destroy()
	if opts != nil && opts.ReportFileOperations {
		// db_bench destroys through its counting file system too.
		C.gdb_use_counted_fs(cfg.opts)
	}
	if o.WALDir != "" {
		s := cString(o.WALDir)
		C.rocksdb_options_set_wal_dir(cfg.opts, s)
		cFree(unsafe.Pointer(s))
	}
	return destroyDB(dir, cfg)
}
