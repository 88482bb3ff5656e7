//go:build rocksdb && !race

package rocksdb

const raceEnabled = false
