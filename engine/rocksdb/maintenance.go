//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"
*/
import "C"

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/godbbench/godbbench/engine"
)

// The rocksdb engine implements engine.Maintainer with RocksDB's own calls:
// GetApproximateSizes, VerifyChecksum, VerifyFileChecksums, CompactFiles
// and GetStatsHistory through the bridge (bridge.cc), GetLiveFilesMetaData
// through the C API.
var _ engine.Maintainer = (*DB)(nil)

// rangeScratch holds the ranges of one ApproximateSizes call laid out for
// the bridge: the keys back to back and their lengths. It is pooled, so a
// call allocates nothing once the pool holds one large enough.
type rangeScratch struct {
	starts, limits       []byte
	startLens, limitLens []C.size_t
}

var rangeScratchPool = sync.Pool{New: func() any { return new(rangeScratch) }}

// ApproximateSizes implements engine.Maintainer.
func (d *DB) ApproximateSizes(ranges []engine.KeyRange, sizes []uint64) error {
	if len(ranges) == 0 {
		return nil
	}
	if d.db == nil {
		return errClosed
	}
	if err := engine.CheckSizes(ranges, sizes); err != nil {
		return err // C would write one size per range through &sizes[0]
	}
	s := rangeScratchPool.Get().(*rangeScratch)
	defer rangeScratchPool.Put(s)
	s.starts, s.limits = s.starts[:0], s.limits[:0]
	s.startLens, s.limitLens = s.startLens[:0], s.limitLens[:0]
	for i := range ranges {
		s.starts = append(s.starts, ranges[i].Start...)
		s.limits = append(s.limits, ranges[i].Limit...)
		s.startLens = append(s.startLens, C.size_t(len(ranges[i].Start)))
		s.limitLens = append(s.limitLens, C.size_t(len(ranges[i].Limit)))
	}
	return cError(C.gdb_approximate_sizes(d.db, C.size_t(len(ranges)),
		bytesPtr(s.starts), &s.startLens[0], bytesPtr(s.limits), &s.limitLens[0],
		(*C.uint64_t)(unsafe.Pointer(&sizes[0]))))
}

// VerifyChecksum implements engine.Maintainer (DB::VerifyChecksum).
func (d *DB) VerifyChecksum() error {
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_verify_checksum(d.db))
}

// VerifyFileChecksums implements engine.Maintainer
// (DB::VerifyFileChecksums; --file_checksum sets RocksDB's CRC32C file
// checksum generator).
func (d *DB) VerifyFileChecksums() error {
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_verify_file_checksums(d.db))
}

// LiveFiles implements engine.Maintainer; names are RocksDB's, "/000012.sst".
func (d *DB) LiveFiles() ([]engine.LiveFile, error) {
	if d.db == nil {
		return nil, errClosed
	}
	lf := C.rocksdb_livefiles(d.db)
	defer C.rocksdb_livefiles_destroy(lf)
	n := int(C.rocksdb_livefiles_count(lf))
	out := make([]engine.LiveFile, n)
	for i := range out {
		out[i] = engine.LiveFile{
			Name:  C.GoString(C.rocksdb_livefiles_name(lf, C.int(i))),
			Level: int(C.rocksdb_livefiles_level(lf, C.int(i))),
			Size:  uint64(C.rocksdb_livefiles_size(lf, C.int(i))),
		}
	}
	return out, nil
}

// CompactFiles implements engine.Maintainer (DB::CompactFiles, as
// db_bench's CompactLevel calls it).
func (d *DB) CompactFiles(names []string, outputLevel int) error {
	if d.db == nil {
		return errClosed
	}
	if len(names) == 0 {
		return cError(C.gdb_compact_files(d.db, nil, 0, C.int(outputLevel)))
	}
	// The name array is C memory: cgo refuses Go memory holding pointers.
	cnames := unsafe.Slice((**C.char)(C.malloc(C.size_t(len(names))*C.size_t(unsafe.Sizeof((*C.char)(nil))))), len(names))
	for i, n := range names {
		cnames[i] = C.CString(n)
	}
	defer func() {
		for _, p := range cnames {
			C.free(unsafe.Pointer(p))
		}
		C.free(unsafe.Pointer(&cnames[0]))
	}()
	return cError(C.gdb_compact_files(d.db, &cnames[0], C.size_t(len(names)), C.int(outputLevel)))
}

// CompactsNamedFiles implements engine.NamedFileCompactor: RocksDB's own
// CompactFiles.
func (d *DB) CompactsNamedFiles() {}

// StatsHistory implements engine.Maintainer (DB::GetStatsHistory over all
// time).
func (d *DB) StatsHistory(fn func(unixSeconds uint64, name string, value uint64)) error {
	if d.db == nil {
		return errClosed
	}
	var text *C.char
	if err := cError(C.gdb_stats_history(d.db, &text)); err != nil {
		return err
	}
	s := C.GoString(text)
	C.free(unsafe.Pointer(text))
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 3)
		if len(f) != 3 {
			return fmt.Errorf("rocksdb: stats history line %q", sc.Text())
		}
		ts, err1 := strconv.ParseUint(f[0], 10, 64)
		v, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("rocksdb: stats history line %q", sc.Text())
		}
		fn(ts, f[2], v)
	}
	return nil
}
