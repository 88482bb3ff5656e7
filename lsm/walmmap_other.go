//go:build !linux

package lsm

import "os"

// newMmapLog is the write(2) path where the mapped WAL (walmmap_linux.go)
// is not built.
func newMmapLog(f *os.File, _ int64) (WritableFile, error) { return f, nil }
