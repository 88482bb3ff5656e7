//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package skiplist

import (
	"math/bits"
	"unsafe"
)

// prefixAt reads the 8 bytes at p as a big-endian integer: one load and a
// byte swap on a little-endian machine, cheap enough for cmp to inline.
func prefixAt(p unsafe.Pointer) uint64 { return bits.ReverseBytes64(*(*uint64)(p)) }
