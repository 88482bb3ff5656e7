//go:build rocksdb

package rocksdb

/*
#include <rocksdb/c.h>
#include "shim.h"
*/
import "C"

import "fmt"

// multiGetScratch holds the per-call arrays of MultiGet; pooled so a call
// allocates nothing in steady state.
type multiGetScratch struct {
	keys    []byte
	off     []C.size_t
	handles []*C.rocksdb_pinnableslice_t
	vals    []*C.char
	lens    []C.size_t
	errs    []*C.char
}

func (s *multiGetScratch) reset(n int) {
	if cap(s.off) < n+1 {
		s.off = make([]C.size_t, n+1)
		s.handles = make([]*C.rocksdb_pinnableslice_t, n)
		s.vals = make([]*C.char, n)
		s.lens = make([]C.size_t, n)
		s.errs = make([]*C.char, n)
	}
	s.off = s.off[:n+1]
	s.handles = s.handles[:n]
	s.vals = s.vals[:n]
	s.lens = s.lens[:n]
	s.errs = s.errs[:n]
	s.keys = s.keys[:0]
}

// MultiGet implements engine.Runner's MultiGet as db_bench's
// multireadrandom reads: with --multiread_batched, RocksDB's batched
// MultiGet (rocksdb_batched_multi_get_cf), whose values are pinned, not
// copied; without it, the MultiGet of a vector of keys, which copies each
// value (rocksdb_multi_get_cf).
func (d *DB) MultiGet(keys [][]byte, found []bool, fn func(i int, value []byte)) error {
	if d.db == nil {
		return errClosed
	}
	n := len(keys)
	if n == 0 {
		return nil
	}
	if len(found) < n {
		return fmt.Errorf("rocksdb: MultiGet: %d keys but room for %d results", n, len(found))
	}
	s, _ := d.mget.Get().(*multiGetScratch)
	if s == nil {
		s = &multiGetScratch{}
	}
	defer d.mget.Put(s)
	s.reset(n)
	for i, k := range keys {
		s.off[i] = C.size_t(len(s.keys))
		s.keys = append(s.keys, k...)
	}
	s.off[n] = C.size_t(len(s.keys))
	if len(s.keys) == 0 {
		s.keys = append(s.keys, 0) // keep &keys[0] valid for all-empty keys
	}
	var handles **C.rocksdb_pinnableslice_t
	if d.multiGetBatched {
		C.gdb_multi_get(d.db, d.ro, d.cf, C.size_t(n), bytesPtr(s.keys), &s.off[0],
			&s.handles[0], &s.vals[0], &s.lens[0], &s.errs[0])
		handles = &s.handles[0]
	} else {
		C.gdb_multi_get_copies(d.db, d.ro, d.cf, C.size_t(n), bytesPtr(s.keys), &s.off[0],
			&s.vals[0], &s.lens[0], &s.errs[0])
	}
	var firstErr error
	for i := 0; i < n; i++ {
		if s.errs[i] != nil {
			if err := cError(s.errs[i]); firstErr == nil {
				firstErr = err
			}
			s.errs[i] = nil
		}
		if handles != nil {
			found[i] = s.handles[i] != nil
		} else {
			found[i] = s.vals[i] != nil
		}
		if found[i] && firstErr == nil {
			fn(i, goBytes(s.vals[i], s.lens[i]))
		}
	}
	C.gdb_multi_get_release(handles, &s.vals[0], C.size_t(n))
	return firstErr
}
