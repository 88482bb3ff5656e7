//go:build !rocksdb

package rocksdb

import "github.com/godbbench/godbbench/engine"

func init() {
	engine.RegisterMissing("rocksdb", "this binary was built without RocksDB support; rebuild with -tags rocksdb (needs Debian's librocksdb-dev 7.8.3)")
}
