package skiplist

import (
	"testing"

	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/memtabletest"
)

func TestConformance(t *testing.T) {
	memtabletest.RunRep(t, func() memtable.Rep { return New() })
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"skiplist", "skip_list", "SkipListFactory", "skip_list:16"} {
		r, err := memtable.New(name)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if _, ok := r.(*List); !ok {
			t.Fatalf("New(%q) = %T", name, r)
		}
	}
}

func BenchmarkRep(b *testing.B) {
	memtabletest.BenchRep(b, func() memtable.Rep { return New() })
}
