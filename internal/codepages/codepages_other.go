//go:build !linux

package codepages

// Release does nothing here (see the package doc).
func Release(prefixes ...string) (Released, error) { return Released{}, nil }
