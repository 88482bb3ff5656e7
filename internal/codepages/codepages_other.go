//go:build !linux

package codepages

// Release does nothing here (see the package doc).
func Release(prefixes ...string) (Released, error) { return Released{}, nil }

// ResidentAt finds nothing here: there is no smaps to read.
func ResidentAt(addr uintptr) (Resident, bool, error) { return Resident{}, false, nil }
