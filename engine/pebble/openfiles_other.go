//go:build !unix

package pebble

// maxOpenFiles maps RocksDB's max_open_files onto Pebble's MaxOpenFiles;
// without a descriptor limit to read, -1 becomes Pebble's default of 1000.
func maxOpenFiles(n int) int {
	if n > 0 {
		return n
	}
	return 1000
}
