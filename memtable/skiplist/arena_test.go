package skiplist

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/godbbench/godbbench/internal/base"
)

// testEntry is entry i of a list tagged tag: a 16-byte key (longer than
// the inline length for every 7th), a value of 10-300 bytes (empty for
// every 5th).
func testEntry(i int, tag string) (key, value []byte) {
	key = fmt.Appendf(nil, "%016d", i)
	if i%7 == 0 {
		key = fmt.Appendf(key, "-long-%s", tag)
	}
	if i%5 != 0 {
		value = bytes.Repeat([]byte(tag), 10+i%290)
	}
	return key, value
}

// fillList adds testEntry 0 to n-1.
func fillList(t *testing.T, l *List, n int, tag string) {
	t.Helper()
	for i := 0; i < n; i++ {
		key, value := testEntry(i, tag)
		if err := l.Add(uint64(i+1), base.KindSet, key, value); err != nil {
			t.Fatal(err)
		}
	}
}

// checkList verifies every entry fillList(n, tag) wrote, in order, and
// that nothing else is there.
func checkList(t *testing.T, l *List, n int, tag string) {
	t.Helper()
	it := l.NewIter()
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		key, value := testEntry(i, tag)
		if !bytes.Equal(it.Key(), key) || !bytes.Equal(it.Value(), value) || it.Seq() != uint64(i+1) {
			t.Fatalf("entry %d: %q=%q seq %d, want %q=%q seq %d", i, it.Key(), it.Value(), it.Seq(), key, value, i+1)
		}
		got, kind, found := l.Get(key, base.MaxSeq)
		if !found || kind != base.KindSet || !bytes.Equal(got, value) {
			t.Fatalf("Get(%q) = %q, %v, %v", key, got, kind, found)
		}
		i++
	}
	if i != n {
		t.Fatalf("iterated %d entries, want %d", i, n)
	}
}

// TestReleasedChunksAreReused releases a list that filled several big
// chunks and checks that the next list takes them from the pool, zeroed:
// it must hold exactly its own entries, tall nodes and long keys included.
func TestReleasedChunksAreReused(t *testing.T) {
	const n = 40000 // ~2.5 MiB of nodes and ~6 MiB of values: several chunks
	a := New()
	fillList(t, a, n, "A")
	checkList(t, a, n, "A")
	a.Release()
	a.Release() // a second call does nothing
	deadline := time.Now().Add(10 * time.Second)
	for chunks.Len() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the released chunks never reached the pool")
		}
		time.Sleep(time.Millisecond)
	}
	b := New()
	fillList(t, b, n, "B")
	checkList(t, b, n, "B")
	if it := a.NewIter(); it.First() {
		t.Fatal("a released list still shows entries")
	}
}

// TestSmallListChunks checks that a list for a small write buffer maps
// small chunks, so that its memory usage, which an engine compares with the
// write buffer size, starts well below it.
func TestSmallListChunks(t *testing.T) {
	l := NewSized(1 << 20)
	fillList(t, l, 10, "s")
	if got := l.ApproximateMemoryUsage(); got > 256<<10 {
		t.Fatalf("ApproximateMemoryUsage = %d after 10 entries, want at most 256 KiB", got)
	}
	checkList(t, l, 10, "s")
}

// TestLateInstallAfterAnotherIsSkipped: a writer that found a chunk full
// and reaches install after another writer replaced it installs nothing.
// (Comparing with the chunk current at the call, it installed one more
// and abandoned the other writer's after a few allocations.)
func TestLateInstallAfterAnotherIsSkipped(t *testing.T) {
	a := newArena(0)
	if _, _, err := a.alloc(64); err != nil {
		t.Fatal(err)
	}
	full := a.cur.Load()
	// Two writers found full full; the first installs the next chunk.
	if _, err := a.install(a.chunkSize, full, true); err != nil {
		t.Fatal(err)
	}
	next, windows := a.cur.Load(), a.nwindows
	if next == full {
		t.Fatal("the first writer installed no chunk")
	}
	if _, err := a.install(a.chunkSize, full, true); err != nil {
		t.Fatal(err)
	}
	if a.cur.Load() != next || a.nwindows != windows {
		t.Fatalf("the second writer installed another chunk (%d windows, %d before)", a.nwindows, windows)
	}
}
