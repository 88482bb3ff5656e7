package badgerskl

import (
	"testing"

	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/memtabletest"
)

func TestConformance(t *testing.T) {
	memtabletest.RunRep(t, func() memtable.Rep { return New(64 << 20) })
	memtabletest.RunFull(t, func() memtable.Rep { return New(1 << 20) })
}

func BenchmarkRep(b *testing.B) {
	memtabletest.BenchRep(b, func() memtable.Rep { return New(256 << 20) })
}
