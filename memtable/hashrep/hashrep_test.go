package hashrep

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/memtabletest"
)

// shapes are the reps the suite runs on: both kinds, with buckets enough
// for one prefix each and with so few that every bucket mixes prefixes;
// prefix sizes shorter and longer than the suite's keys.
var shapes = []Options{
	{PrefixSize: 3, Buckets: 1 << 16, Height: DefaultSkipListHeight, Branching: DefaultSkipListBranching},
	{PrefixSize: 1, Buckets: 7, Height: DefaultSkipListHeight, Branching: DefaultSkipListBranching},
	{PrefixSize: 8, Buckets: 13, Height: 12, Branching: 2},
	{PrefixSize: 3, Buckets: DefaultLinkListBuckets, Height: 1, Branching: 1},
	{PrefixSize: 2, Buckets: 5, Height: 1, Branching: 1},
}

func TestConformance(t *testing.T) {
	for _, o := range shapes {
		t.Run(fmt.Sprintf("prefix%d_buckets%d_height%d", o.PrefixSize, o.Buckets, o.Height), func(t *testing.T) {
			memtabletest.RunRep(t, func() memtable.Rep {
				r, err := New(o)
				if err != nil {
					t.Fatal(err)
				}
				return r
			})
		})
	}
}

// TestRegistered builds both reps by their db_bench names and checks the
// factories' defaults and the refusal without a prefix size.
func TestRegistered(t *testing.T) {
	for spec, want := range map[string]int{"prefix_hash": DefaultSkipListBuckets, "hash_linkedlist": DefaultLinkListBuckets,
		"prefix_hash:64": 64, "HashLinkListRepFactory:9": 9} {
		f, cfg, err := memtable.Lookup(spec)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", spec, err)
		}
		if _, err := f(cfg); err == nil {
			t.Fatalf("%s without a prefix size was built", spec)
		}
		cfg.PrefixSize = 4
		r, err := f(cfg)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got := len(r.(*Rep).buckets); got != want {
			t.Errorf("%s: %d buckets, want %d", spec, got, want)
		}
	}
}

func BenchmarkPrefixHash(b *testing.B) {
	memtabletest.BenchRep(b, func() memtable.Rep {
		r, _ := New(Options{PrefixSize: 8, Buckets: DefaultSkipListBuckets, Height: DefaultSkipListHeight, Branching: DefaultSkipListBranching})
		return r
	})
}
