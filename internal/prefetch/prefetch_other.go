//go:build !amd64

package prefetch

import "unsafe"

// Line does nothing where no prefetch instruction is wired up.
func Line(unsafe.Pointer) {}

// Span does nothing where no prefetch instruction is wired up.
func Span(unsafe.Pointer, uintptr) {}
