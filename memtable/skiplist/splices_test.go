package skiplist

import (
	"bytes"
	"encoding/binary"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestSpliceCacheClaim checks the slot an Add takes: the free one whose last
// prefix is the greatest below its own, slot 0 when none is below, and no
// slot when that one is busy.
func TestSpliceCacheClaim(t *testing.T) {
	var c spliceCache
	if i, ok := c.claim(0); i != 0 || !ok {
		t.Fatalf("claim(0) on an empty cache = %d %v, want slot 0", i, ok)
	}
	c.release(0, 100)
	for _, tc := range []struct {
		pfx  uint64
		want int
	}{{101, 0}, {100, 1}, {50, 1}} {
		i, ok := c.claim(tc.pfx)
		if i != tc.want || !ok {
			t.Fatalf("claim(%d) = %d %v, want %d", tc.pfx, i, ok, tc.want)
		}
		c.release(i, c.prefix[i].Load())
	}
	c.release(1, 90)
	c.release(2, 95)
	if i, _ := c.claim(96); i != 2 {
		t.Fatalf("claim(96) = slot %d, want 2 (prefix 95)", i)
	}
	if i, ok := c.claim(97); i != 2 || ok {
		t.Fatalf("claim(97) while slot 2 is busy = %d %v, want 2 false", i, ok)
	}
	c.release(2, 96)
	for i := range spliceSlots {
		c.release(i, 500)
	}
	if i, ok := c.claim(500); i != 0 || !ok {
		t.Fatalf("claim(500) with no slot below = %d %v, want slot 0", i, ok)
	}
}

// TestInterleavedStreams writes the same ascending keys from several
// goroutines, as db_bench's fillseq with threads does, and checks that the
// list holds every version once, in order.
func TestInterleavedStreams(t *testing.T) {
	const streams, keys = 12, 5000 // more streams than cached splices
	l := NewSized(64 << 20)
	defer l.Release()
	var seq sync.Mutex
	next := uint64(0)
	var wg sync.WaitGroup
	for range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var k [16]byte
			for i := range keys {
				binary.BigEndian.PutUint64(k[:], uint64(i))
				seq.Lock()
				next++
				s := next
				seq.Unlock()
				if err := l.Add(s, base.KindSet, k[:], k[:4]); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	it := l.NewIter()
	n := 0
	var lastKey []byte
	var lastSeq uint64
	for ok := it.First(); ok; ok = it.Next() {
		key := it.Key()
		if n > 0 {
			c := bytes.Compare(lastKey, key)
			if c > 0 || c == 0 && it.Seq() >= lastSeq {
				t.Fatalf("entry %d (%x, %d) after (%x, %d)", n, key, it.Seq(), lastKey, lastSeq)
			}
		}
		lastKey, lastSeq = append(lastKey[:0], key...), it.Seq()
		n++
	}
	if n != streams*keys {
		t.Fatalf("scan found %d entries, want %d", n, streams*keys)
	}
	for i := range keys {
		var k [16]byte
		binary.BigEndian.PutUint64(k[:], uint64(i))
		if _, _, ok := l.Get(k[:], base.MaxSeq); !ok {
			t.Fatalf("key %d not found", i)
		}
	}
}
