//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>

// gdb_backup is db_bench's Backup(): a BackupEngine on backup_dir with
// destroy_old_data (every earlier backup is deleted) and the rate limit
// (bytes per second, 0 none), then CreateNewBackup of db.
static char* gdb_backup(rocksdb_t* db, const char* backup_dir, uint64_t rate) {
	char* err = NULL;
	rocksdb_backup_engine_options_t* o = rocksdb_backup_engine_options_create(backup_dir);
	rocksdb_backup_engine_options_set_destroy_old_data(o, 1);
	if (rate > 0) {
		rocksdb_backup_engine_options_set_backup_rate_limit(o, rate);
	}
	rocksdb_env_t* env = rocksdb_create_default_env();
	rocksdb_backup_engine_t* be = rocksdb_backup_engine_open_opts(o, env, &err);
	if (err == NULL) {
		rocksdb_backup_engine_create_new_backup(be, db, &err);
		rocksdb_backup_engine_close(be);
	}
	rocksdb_env_destroy(env);
	rocksdb_backup_engine_options_destroy(o);
	return err;
}

// gdb_restore is db_bench's Restore(): RestoreDBFromLatestBackup into
// restore_dir (DB and WAL), at most rate bytes per second (0 none).
static char* gdb_restore(const char* backup_dir, const char* restore_dir, uint64_t rate) {
	char* err = NULL;
	rocksdb_backup_engine_options_t* o = rocksdb_backup_engine_options_create(backup_dir);
	if (rate > 0) {
		rocksdb_backup_engine_options_set_restore_rate_limit(o, rate);
	}
	rocksdb_env_t* env = rocksdb_create_default_env();
	rocksdb_backup_engine_t* be = rocksdb_backup_engine_open_opts(o, env, &err);
	if (err == NULL) {
		rocksdb_restore_options_t* ro = rocksdb_restore_options_create();
		rocksdb_backup_engine_restore_db_from_latest_backup(be, restore_dir, restore_dir, ro, &err);
		rocksdb_restore_options_destroy(ro);
		rocksdb_backup_engine_close(be);
	}
	rocksdb_env_destroy(env);
	rocksdb_backup_engine_options_destroy(o);
	return err;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/godbbench/godbbench/engine"
)

// Backup is engine.BackupEngine's: RocksDB's BackupEngine, as db_bench
// 7.8.3 runs it (destroy_old_data, a rate limiter of rateLimit bytes per
// second when not 0).
func (Opener) Backup(db engine.DB, backupDir string, rateLimit uint64) error {
	d, ok := db.(*DB)
	if !ok {
		return fmt.Errorf("rocksdb: backup of a %T, not a rocksdb DB", db)
	}
	dir := C.CString(backupDir)
	defer C.free(unsafe.Pointer(dir))
	return cError(C.gdb_backup(d.db, dir, C.uint64_t(rateLimit)))
}

// Restore is engine.BackupEngine's: RocksDB's RestoreDBFromLatestBackup
// into restoreDir, its WAL there too, as db_bench 7.8.3 runs it.
func (Opener) Restore(backupDir, restoreDir string, rateLimit uint64) error {
	bdir, rdir := C.CString(backupDir), C.CString(restoreDir)
	defer C.free(unsafe.Pointer(bdir))
	defer C.free(unsafe.Pointer(rdir))
	return cError(C.gdb_restore(bdir, rdir, C.uint64_t(rateLimit)))
}
