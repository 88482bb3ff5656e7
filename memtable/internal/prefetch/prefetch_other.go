//go:build !amd64

package prefetch

import "unsafe"

// Line does nothing where no prefetch instruction is wired up.
func Line(unsafe.Pointer) {}

// Lines3 does nothing where no prefetch instruction is wired up.
func Lines3(unsafe.Pointer) {}
