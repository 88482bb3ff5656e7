// Hot-path shims over RocksDB's C API, included by the cgo preambles of
// this package. See capi.go for why they exist.
#ifndef GODBBENCH_ROCKSDB_SHIM_H
#define GODBBENCH_ROCKSDB_SHIM_H

#include <stddef.h>
#include <rocksdb/c.h>

static inline char* gdb_put(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                     const char* k, size_t kl, const char* v, size_t vl) {
	char* err = NULL;
	rocksdb_put(db, wo, k, kl, v, vl, &err);
	return err;
}

static inline char* gdb_delete(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                        const char* k, size_t kl) {
	char* err = NULL;
	rocksdb_delete(db, wo, k, kl, &err);
	return err;
}

static inline char* gdb_write(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                       rocksdb_writebatch_t* b) {
	char* err = NULL;
	rocksdb_write(db, wo, b, &err);
	return err;
}

// gdb_get_result is one point lookup: handle is NULL when the key is absent.
typedef struct {
	rocksdb_pinnableslice_t* handle;
	const char* data;
	size_t len;
	char* err;
} gdb_get_result;

static inline gdb_get_result gdb_get(rocksdb_t* db, const rocksdb_readoptions_t* ro,
                              const char* k, size_t kl) {
	gdb_get_result r = {NULL, NULL, 0, NULL};
	r.handle = rocksdb_get_pinned(db, ro, k, kl, &r.err);
	if (r.handle != NULL) {
		r.data = rocksdb_pinnableslice_value(r.handle, &r.len);
	}
	return r;
}

// gdb_iter_pos is an iterator position: valid, and the key when valid.
typedef struct {
	const char* key;
	size_t len;
	int valid;
} gdb_iter_pos;

static inline gdb_iter_pos gdb_iter_here(rocksdb_iterator_t* it) {
	gdb_iter_pos p = {NULL, 0, 0};
	p.valid = rocksdb_iter_valid(it);
	if (p.valid) {
		p.key = rocksdb_iter_key(it, &p.len);
	}
	return p;
}

enum { GDB_FIRST = 0, GDB_LAST = 1, GDB_NEXT = 2, GDB_PREV = 3 };

static inline gdb_iter_pos gdb_iter_move(rocksdb_iterator_t* it, int how) {
	switch (how) {
	case GDB_FIRST: rocksdb_iter_seek_to_first(it); break;
	case GDB_LAST: rocksdb_iter_seek_to_last(it); break;
	case GDB_NEXT: rocksdb_iter_next(it); break;
	default: rocksdb_iter_prev(it); break;
	}
	return gdb_iter_here(it);
}

static inline gdb_iter_pos gdb_iter_seek(rocksdb_iterator_t* it, const char* k, size_t kl) {
	rocksdb_iter_seek(it, k, kl);
	return gdb_iter_here(it);
}

static inline gdb_iter_pos gdb_iter_seek_for_prev(rocksdb_iterator_t* it, const char* k, size_t kl) {
	rocksdb_iter_seek_for_prev(it, k, kl);
	return gdb_iter_here(it);
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

static inline void gdb_pinned_destroy_all(rocksdb_pinnableslice_t** handles, size_t n) {
	for (size_t i = 0; i < n; i++) {
		if (handles[i] != NULL) {
			rocksdb_pinnableslice_destroy(handles[i]);
			handles[i] = NULL;
		}
	}
}

static inline char* gdb_iter_error(const rocksdb_iterator_t* it) {
	char* err = NULL;
	rocksdb_iter_get_error(it, &err);
	return err;
}

#endif
