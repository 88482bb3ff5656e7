//go:build unix

package pebble

import "syscall"

// maxOpenFiles maps RocksDB's max_open_files onto Pebble's MaxOpenFiles.
// RocksDB's -1 means "keep every table open"; Pebble needs a number, so -1
// becomes the process's soft descriptor limit less 256 kept for WALs, the
// MANIFEST, sockets and the driver's own files, and at most 1<<20. Pebble's
// own default (1000) would make a 64 GiB database of 64 MiB tables reopen
// files on reads, which RocksDB at -1 never does.
func maxOpenFiles(n int) int {
	if n > 0 {
		return n
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur <= 1256 {
		return 1000
	}
	return int(min(lim.Cur-256, 1<<20))
}
