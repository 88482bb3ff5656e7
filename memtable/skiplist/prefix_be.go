//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package skiplist

import "unsafe"

// prefixAt reads the 8 bytes at p as a big-endian integer: on a big-endian
// machine, one load.
func prefixAt(p unsafe.Pointer) uint64 { return *(*uint64)(p) }
