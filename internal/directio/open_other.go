//go:build !linux

package directio

import "os"

// Open fails: direct I/O is built for Linux only.
func Open(string) (*os.File, error) { return nil, ErrUnsupported }

// Create fails: direct I/O is built for Linux only.
func Create(string) (*os.File, error) { return nil, ErrUnsupported }

// IsDirect is false: no file is opened for direct I/O here.
func IsDirect(*os.File) (bool, error) { return false, nil }
