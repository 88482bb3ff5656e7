//go:build invariants || race

package sst

import (
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants/invariantstest"
)

// TestInvariantBlockOrder hands the block encoder, after ("b", 8), the
// same entry again, a newer version of "b" and a smaller key: each must
// fire, while an older version of "b" and a larger key pass.
func TestInvariantBlockOrder(t *testing.T) {
	start := func() *keyBlockWriter {
		b := &keyBlockWriter{interval: 16}
		b.add([]byte("b"), base.MakeTrailer(8, base.KindSet), nil)
		return b
	}
	b := start()
	b.add([]byte("b"), base.MakeTrailer(7, base.KindSet), nil)
	b.add([]byte("c"), base.MakeTrailer(9, base.KindSet), nil)
	for _, bad := range []struct {
		key string
		seq uint64
	}{{"b", 8}, {"b", 9}, {"a", 1}} {
		b := start()
		invariantstest.Fires(t, "does not sort after", func() {
			b.add([]byte(bad.key), base.MakeTrailer(bad.seq, base.KindSet), nil)
		})
	}
}

// TestInvariantSeparator checks the index separator rule on separators
// below the block's last key, at or past the next block's first key, and
// on the one case where a separator may equal the next key.
func TestInvariantSeparator(t *testing.T) {
	checkSeparator([]byte("apple"), []byte("b"), []byte("banana"))
	checkSeparator([]byte("k"), []byte("k"), []byte("k"))
	checkSeparator([]byte("zz"), []byte("zz"), nil)
	for _, c := range [][3]string{{"apple", "ap", "banana"}, {"apple", "banana", "banana"}, {"apple", "c", "banana"}} {
		invariantstest.Fires(t, "index separator", func() { checkSeparator([]byte(c[0]), []byte(c[1]), []byte(c[2])) })
	}
}

// TestInvariantCacheRelease releases a pinned block cache slot twice: the
// second release must fire.
func TestInvariantCacheRelease(t *testing.T) {
	c := NewCache(1<<20, 0)
	h, _, ok := c.reserve(1, 0, 100)
	if !ok {
		t.Fatal("the cache gave no slot")
	}
	var hint atomic.Int32
	c.publish(h, &hint)
	h.release()
	invariantstest.Fires(t, "released more often than pinned", h.release)
}
