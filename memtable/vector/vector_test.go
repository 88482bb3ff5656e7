package vector

import (
	"testing"

	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/memtabletest"
)

func TestConformance(t *testing.T) {
	memtabletest.RunRep(t, func() memtable.Rep { return New(0) })
}

func TestConformanceReserved(t *testing.T) {
	memtabletest.RunRep(t, func() memtable.Rep { return New(1000) })
}

func BenchmarkRep(b *testing.B) {
	memtabletest.BenchRep(b, func() memtable.Rep { return New(0) })
}
