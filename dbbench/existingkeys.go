package dbbench

import (
	"fmt"
)

// loadExistingKeys is db_bench's --use_existing_keys (which needs
// --use_existing_db): after each open the DB's keys are read in order with
// an iterator, --num becomes their count (for the key ranges; the op
// counts db_bench computed from --num before the open stay), and key
// number v is the v-th of them in every benchmark. db_bench appends at
// every open, so a second open doubles its list; here each open replaces
// it.
//
// Refused here, where db_bench would divide by zero or hand out keys of
// another length than the driver's buffers: a DB without keys, and keys
// whose length is not --key_size. A key number past the list (only a
// workload that draws beyond --num makes one; db_bench asserts there is
// none) wraps around.
func (r *runner) loadExistingKeys() error {
	it, err := r.db.NewIter(nil)
	if err != nil {
		return fmt.Errorf("--use_existing_keys: %v", err)
	}
	ks := r.keys.keySize
	var keys []byte
	var n int64
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if len(k) != ks {
			it.Close()
			return fmt.Errorf("--use_existing_keys: the DB's key %q is %d bytes, and this db_bench makes every key --key_size=%d bytes", k, len(k), ks)
		}
		keys = append(keys, k...)
		n++
	}
	if err := it.Error(); err != nil {
		it.Close()
		return fmt.Errorf("--use_existing_keys: %v", err)
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("--use_existing_keys: %v", err)
	}
	if n == 0 {
		return fmt.Errorf("--use_existing_keys: the DB in %s holds no keys", r.cfg.db)
	}
	r.cfg.num = n
	r.keys.num = n
	r.keys.existing = keys
	return nil
}
