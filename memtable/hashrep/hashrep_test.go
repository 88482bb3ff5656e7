package hashrep

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
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
	{PrefixSize: 1, Buckets: 3, Height: 12, Branching: 4, ListEntries: 40},
}

// shortShapes are the shapes -short (the race run) keeps: one of each kind,
// with buckets shared by several prefixes.
var shortShapes = []Options{shapes[1], shapes[5]}

func TestConformance(t *testing.T) {
	run := shapes
	if testing.Short() {
		run = shortShapes
	}
	for _, o := range run {
		t.Run(fmt.Sprintf("prefix%d_buckets%d_height%d_list%d", o.PrefixSize, o.Buckets, o.Height, o.ListEntries), func(t *testing.T) {
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

// TestListGrowsSkipLinks checks hash_linkedlist's threshold: a bucket's
// first ListEntries nodes are list nodes (height 1), later ones get
// skiplist heights, and the factory's default threshold is RocksDB's 256.
func TestListGrowsSkipLinks(t *testing.T) {
	r, err := New(Options{PrefixSize: 1, Buckets: 1, Height: 12, Branching: 4, ListEntries: 10})
	if err != nil {
		t.Fatal(err)
	}
	for seq := uint64(1); seq <= 2000; seq++ {
		key := fmt.Appendf(nil, "k%05d", seq*7919%2000)
		if err := r.Add(seq, base.KindSet, key, nil); err != nil {
			t.Fatal(err)
		}
	}
	tall := 0
	for n := r.buckets[0].Load().head.next[0].Load(); n != nil; n = n.next[0].Load() {
		if len(n.next) > 1 {
			tall++
			if n.Trailer.Seq() <= 10 {
				t.Fatalf("entry %d of the bucket has height %d, want 1", n.Trailer.Seq(), len(n.next))
			}
		}
	}
	if tall == 0 {
		t.Fatal("no node past the threshold got skiplist links")
	}
	f, cfg, err := memtable.Lookup("hash_linkedlist")
	if err != nil {
		t.Fatal(err)
	}
	cfg.PrefixSize = 1
	rep, err := f(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.(*Rep); got.listCount != DefaultListEntries || got.height != linkListSkipHeight {
		t.Fatalf("hash_linkedlist: list entries %d, height %d", got.listCount, got.height)
	}
}
