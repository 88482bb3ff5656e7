// Hot-path shims over RocksDB's C API, included by the cgo preambles of
// this package. See capi.go for why they exist.
#ifndef GODBBENCH_ROCKSDB_SHIM_H
#define GODBBENCH_ROCKSDB_SHIM_H

#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include <rocksdb/c.h>

#include "lapclock.h"

static inline char* gdb_write(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                       rocksdb_writebatch_t* b) {
	char* err = NULL;
	rocksdb_write(db, wo, b, &err);
	return err;
}

// gdb_iter_pos is an iterator position: valid, and when valid the key and,
// when asked for, the value. Both point into RocksDB's buffers and stay valid
// until the iterator moves. Reading the value with the key costs one more
// virtual call (~2-5 ns): RocksDB 7.8.3's DBIter resolves values (blob
// values included) while positioning, so value() only hands out a slice.
typedef struct {
	const char* key;
	size_t len;
	const char* val;
	size_t vlen;
	int valid;
} gdb_iter_pos;

static inline gdb_iter_pos gdb_iter_here(rocksdb_iterator_t* it, int with_value) {
	gdb_iter_pos p = {NULL, 0, NULL, 0, 0};
	p.valid = rocksdb_iter_valid(it);
	if (p.valid) {
		p.key = rocksdb_iter_key(it, &p.len);
		if (with_value) {
			p.val = rocksdb_iter_value(it, &p.vlen);
		}
	}
	return p;
}

enum { GDB_FIRST = 0, GDB_LAST = 1, GDB_NEXT = 2, GDB_PREV = 3 };

static inline gdb_iter_pos gdb_iter_move(rocksdb_iterator_t* it, int how, int with_value) {
	switch (how) {
	case GDB_FIRST: rocksdb_iter_seek_to_first(it); break;
	case GDB_LAST: rocksdb_iter_seek_to_last(it); break;
	case GDB_NEXT: rocksdb_iter_next(it); break;
	default: rocksdb_iter_prev(it); break;
	}
	return gdb_iter_here(it, with_value);
}

static inline gdb_iter_pos gdb_iter_seek(rocksdb_iterator_t* it, const char* k, size_t kl,
                                         int with_value) {
	rocksdb_iter_seek(it, k, kl);
	return gdb_iter_here(it, with_value);
}

static inline gdb_iter_pos gdb_iter_seek_for_prev(rocksdb_iterator_t* it, const char* k,
                                                  size_t kl, int with_value) {
	rocksdb_iter_seek_for_prev(it, k, kl);
	return gdb_iter_here(it, with_value);
}

typedef struct {
	const char* data;
	size_t len;
} gdb_bytes;

static inline gdb_bytes gdb_iter_value(rocksdb_iterator_t* it) {
	gdb_bytes b;
	b.data = rocksdb_iter_value(it, &b.len);
	return b;
}

// gdb_entry locates one copied entry in a fill buffer: the key is
// buf[off:off+klen], the value follows it (vlen bytes, 0 for keys only).
typedef struct {
	size_t off;
	size_t klen;
	size_t vlen;
} gdb_entry;

// Where the RocksDB iterator stands after gdb_iter_fill.
enum {
	GDB_FILL_AT_LAST = 0, // on the last entry copied
	GDB_FILL_PENDING = 1, // on the entry after the last copied, not copied (no room)
	GDB_FILL_END = 2      // invalid: the end in that direction, or an error
};

typedef struct {
	size_t n;    // entries copied
	size_t need; // when n == 0 and the first entry does not fit: its size
	int state;   // GDB_FILL_*
} gdb_fill_result;

// gdb_iter_fill moves it in direction how (GDB_NEXT or GDB_PREV) up to max
// times, copying each entry reached (key, and value when with_value) into
// buf back to back and describing it in ents. With step_first 0 the entry
// the iterator stands on is copied first, without a move. It stops early at
// the end or when the next entry does not fit in cap bytes; then that entry
// stays current and uncopied (GDB_FILL_PENDING, need set when nothing was
// copied). One call replaces max cgo crossings.
static inline gdb_fill_result gdb_iter_fill(rocksdb_iterator_t* it, int how, int step_first,
                                            int with_value, char* buf, size_t cap,
                                            gdb_entry* ents, size_t max) {
	gdb_fill_result r = {0, 0, GDB_FILL_AT_LAST};
	size_t used = 0;
	while (r.n < max) {
		if (step_first || r.n > 0) {
			if (how == GDB_NEXT) {
				rocksdb_iter_next(it);
			} else {
				rocksdb_iter_prev(it);
			}
		}
		if (!rocksdb_iter_valid(it)) {
			r.state = GDB_FILL_END;
			return r;
		}
		size_t kl = 0, vl = 0;
		const char* k = rocksdb_iter_key(it, &kl);
		const char* v = NULL;
		if (with_value) {
			v = rocksdb_iter_value(it, &vl);
		}
		if (kl + vl > cap - used) {
			r.state = GDB_FILL_PENDING;
			if (r.n == 0) {
				r.need = kl + vl;
			}
			return r;
		}
		if (kl > 0) {
			memcpy(buf + used, k, kl);
		}
		if (vl > 0) {
			memcpy(buf + used + kl, v, vl);
		}
		ents[r.n].off = used;
		ents[r.n].klen = kl;
		ents[r.n].vlen = vl;
		used += kl + vl;
		r.n++;
	}
	return r;
}

// gdb_sum_result is what gdb_iter_sum counted.
typedef struct {
	size_t count;
	unsigned long long bytes;
	int more; // stopped on the n-th entry (1) or ran off the end (0)
} gdb_sum_result;

// gdb_iter_sum counts up to n entries forward from the current one (from
// the next one with step_first), summing key and, with with_value, value
// lengths, and stops on the n-th (engine.SizeScanner). With done_ns
// non-NULL it sets done_ns[i] to the time from the call's start to the
// counting of entry i (engine.TimedScanner), in a clock.Stopwatch's laps:
// counter ticks when ticking, else nanoseconds.
static inline gdb_sum_result gdb_iter_sum(rocksdb_iterator_t* it, size_t n, int step_first,
                                          int with_value, int64_t* done_ns, int ticking) {
	gdb_sum_result r = {0, 0, 0};
	int64_t start = done_ns != NULL ? gdb_lap_now(ticking) : 0;
	if (n == 0) {
		r.more = rocksdb_iter_valid(it);
		return r;
	}
	if (step_first) {
		rocksdb_iter_next(it);
	}
	while (rocksdb_iter_valid(it)) {
		size_t kl = 0, vl = 0;
		rocksdb_iter_key(it, &kl);
		if (with_value) {
			rocksdb_iter_value(it, &vl);
		}
		r.bytes += kl + vl;
		if (done_ns != NULL) {
			done_ns[r.count] = gdb_lap_now(ticking) - start;
		}
		r.count++;
		if (r.count == n) {
			r.more = 1;
			return r;
		}
		rocksdb_iter_next(it);
	}
	return r;
}

static inline void gdb_batch_put(rocksdb_writebatch_t* b, const char* k, size_t kl,
                          const char* v, size_t vl) {
	rocksdb_writebatch_put(b, k, kl, v, vl);
}

static inline void gdb_batch_delete(rocksdb_writebatch_t* b, const char* k, size_t kl) {
	rocksdb_writebatch_delete(b, k, kl);
}

// gdb_multi_get looks up n keys stored back to back in keys (key i is
// keys[off[i]:off[i+1]]) with RocksDB's batched MultiGet, writing one pinned
// handle (NULL when absent), value pointer, length and error per key.
static inline void gdb_multi_get(rocksdb_t* db, const rocksdb_readoptions_t* ro,
                          rocksdb_column_family_handle_t* cf, size_t n,
                          const char* keys, const size_t* off,
                          rocksdb_pinnableslice_t** handles, const char** vals,
                          size_t* lens, char** errs) {
	const char* kp[64];
	size_t ks[64];
	size_t i;
	// Batches of 64 keep the pointer arrays on the C stack; db_bench's
	// multiread_batched default batch is 8 and rarely above 64.
	for (size_t base = 0; base < n; base += 64) {
		size_t m = n - base < 64 ? n - base : 64;
		for (i = 0; i < m; i++) {
			kp[i] = keys + off[base + i];
			ks[i] = off[base + i + 1] - off[base + i];
			errs[base + i] = NULL;
		}
		rocksdb_batched_multi_get_cf(db, ro, cf, m, kp, ks, handles + base,
		                             errs + base, 0);
	}
	for (i = 0; i < n; i++) {
		vals[i] = NULL;
		lens[i] = 0;
		if (handles[i] != NULL) {
			vals[i] = rocksdb_pinnableslice_value(handles[i], &lens[i]);
		}
	}
}

// gdb_multi_get_copies looks up n keys laid out as for gdb_multi_get with
// RocksDB's MultiGet of a vector of keys (rocksdb_multi_get_cf), the
// non-batched interface db_bench uses without --multiread_batched: each
// found value is a malloc'd copy in vals[i] (NULL when absent), freed by
// gdb_multi_get_release.
static inline void gdb_multi_get_copies(rocksdb_t* db, const rocksdb_readoptions_t* ro,
                          rocksdb_column_family_handle_t* cf, size_t n,
                          const char* keys, const size_t* off, char** vals,
                          size_t* lens, char** errs) {
	const char* kp[64];
	size_t ks[64];
	const rocksdb_column_family_handle_t* cfs[64];
	size_t i;
	for (size_t base = 0; base < n; base += 64) {
		size_t m = n - base < 64 ? n - base : 64;
		for (i = 0; i < m; i++) {
			kp[i] = keys + off[base + i];
			ks[i] = off[base + i + 1] - off[base + i];
			cfs[i] = cf;
		}
		rocksdb_multi_get_cf(db, ro, cfs, m, kp, ks, vals + base, lens + base, errs + base);
	}
}

// gdb_multi_get_release releases the n results of a MultiGet: the pinned
// handles of gdb_multi_get when handles is not NULL, else the copies of
// gdb_multi_get_copies; each is set to NULL.
static inline void gdb_multi_get_release(rocksdb_pinnableslice_t** handles, char** copies,
                                         size_t n) {
	for (size_t i = 0; i < n; i++) {
		if (handles != NULL && handles[i] != NULL) {
			rocksdb_pinnableslice_destroy(handles[i]);
			handles[i] = NULL;
		} else if (handles == NULL && copies[i] != NULL) {
			rocksdb_free(copies[i]);
			copies[i] = NULL;
		}
	}
}

static inline char* gdb_iter_error(const rocksdb_iterator_t* it) {
	char* err = NULL;
	rocksdb_iter_get_error(it, &err);
	return err;
}

#endif
