//go:build rocksdb

package rocksdb

// A secondary instance (db_bench --use_secondary_db): the database at the
// path is opened read-only as a secondary of the process that writes it,
// with its own info log and OPTIONS file in the secondary path, and
// catches up with the primary's MANIFEST and WAL every
// --secondary_update_interval seconds on a goroutine, as db_bench's
// secondary update thread does. Writes fail with RocksDB's words.

/*
#include <stdlib.h>
#include <rocksdb/c.h>

static char* gdb_open_secondary(const rocksdb_options_t* opts, const char* path,
                                const char* secondary_path, rocksdb_t** db,
                                rocksdb_column_family_handle_t** cf) {
	char* err = NULL;
	const char* names[1] = {"default"};
	const rocksdb_options_t* cf_opts[1] = {opts};
	*db = rocksdb_open_as_secondary_column_families(opts, path, secondary_path, 1, names,
	                                                cf_opts, cf, &err);
	return err;
}

static char* gdb_try_catch_up(rocksdb_t* db) {
	char* err = NULL;
	rocksdb_try_catch_up_with_primary(db, &err);
	return err;
}
*/
import "C"

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/godbbench/godbbench/options"
)

// SecondaryUpdatesProperty is the engine property (engine.DB.Property) of
// a secondary instance's count of catch-ups, which db_bench reports at
// the end as "Secondary instance updated  N times.".
const SecondaryUpdatesProperty = "godbbench.secondary-updates"

// secondaryUpdater catches a secondary instance up with its primary
// periodically until stopped.
type secondaryUpdater struct {
	updates atomic.Int64
	done    chan struct{}
	wg      sync.WaitGroup
}

// defaultSecondaryPath is db_bench's: RocksDB's test directory
// (Env::GetTestDirectory: $TEST_TMPDIR, else /tmp/rocksdbtest-<euid>)
// followed by /dbbench_secondary.
func defaultSecondaryPath() string {
	dir := os.Getenv("TEST_TMPDIR")
	if dir == "" {
		dir = "/tmp/rocksdbtest-" + strconv.Itoa(os.Geteuid())
	}
	return filepath.Join(dir, "dbbench_secondary")
}

// openSecondary opens d as a secondary instance of the database at path
// and, with a positive update interval, starts its catch-ups, whose
// failures are reported on warn.
func (d *DB) openSecondary(path *C.char, o *options.Options, warn io.Writer) error {
	secondary := o.SecondaryPath
	if secondary == "" {
		secondary = defaultSecondaryPath()
	}
	if err := os.MkdirAll(secondary, 0o755); err != nil {
		return err
	}
	sp := cString(secondary)
	defer cFree(unsafe.Pointer(sp))
	if err := cError(C.gdb_open_secondary(d.cfg.opts, path, sp, &d.db, &d.cf)); err != nil {
		return err
	}
	d.secondary = &secondaryUpdater{done: make(chan struct{})}
	if o.SecondaryUpdateInterval > 0 {
		d.secondary.start(d.db, time.Duration(o.SecondaryUpdateInterval)*time.Second, warn)
	}
	return nil
}

// start runs the catch-ups: one at once, then one per interval, until
// stop or the first failure.
func (u *secondaryUpdater) start(db *C.rocksdb_t, interval time.Duration, warn io.Writer) {
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		for {
			if err := cError(C.gdb_try_catch_up(db)); err != nil {
				fmt.Fprintf(warn, "Failed to catch up with primary: %v\n", err)
				return
			}
			u.updates.Add(1)
			select {
			case <-u.done:
				return
			case <-time.After(interval):
			}
		}
	}()
}

// stop ends the catch-ups and waits for the last one; nil (a primary)
// does nothing.
func (u *secondaryUpdater) stop() {
	if u == nil {
		return
	}
	close(u.done)
	u.wg.Wait()
}

// report is SecondaryUpdatesProperty's value: the count of catch-ups, or
// false for a primary.
func (u *secondaryUpdater) report() (string, bool) {
	if u == nil {
		return "", false
	}
	return strconv.FormatInt(u.updates.Load(), 10), true
}
