package rtable

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkPointerChase measures one dependent random cache miss: each
// step loads the 64-byte line whose number the previous line holds (a
// random cycle through every line of 256 MiB), from a Go heap slice and
// from a shared mapping of a page-cached file, as rtable reads its
// tables. It reports CPU ns per step, which on a loaded machine is
// steadier than wall time. internal/hugemem's RandomReadChain measures
// the same on huge pages.
//
//	go test -run XXX -bench PointerChase -benchtime 5000000x ./rtable/
func BenchmarkPointerChase(b *testing.B) {
	const size = 256 << 20
	const lines = size / 64
	chain := make([]byte, size)
	order := rand.New(rand.NewPCG(3, 3)).Perm(lines)
	for i, l := range order {
		binary.LittleEndian.PutUint32(chain[l*64:], uint32(order[(i+1)%lines]))
	}
	run := func(b *testing.B, mem []byte) {
		at := uint32(order[0])
		cpu := cpuTime()
		for b.Loop() {
			at = binary.LittleEndian.Uint32(mem[uint64(at)*64:])
		}
		reportCPU(b, cpu)
		benchSink += int(at)
	}
	b.Run("goheap", func(b *testing.B) { run(b, chain) })
	b.Run("filemap", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "chain")
		if err := os.WriteFile(path, chain, 0o644); err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			b.Fatal(err)
		}
		defer syscall.Munmap(m)
		for i := 0; i < size; i += 4096 {
			benchSink += int(m[i]) // map every page before timing
		}
		run(b, m)
	})
}
