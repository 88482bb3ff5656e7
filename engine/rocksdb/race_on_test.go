//go:build rocksdb && race

package rocksdb

// raceEnabled reports a -race build, where sync.Pool drops items on purpose
// and allocation counts are meaningless.
const raceEnabled = true
