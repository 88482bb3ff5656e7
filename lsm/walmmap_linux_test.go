//go:build linux

package lsm

import (
	"bytes"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"syscall"
	"testing"
)

// TestMmapLogWrites writes pieces of every size across several extents,
// syncing now and then, and checks the file: while open it is allocated a
// whole extent at a time with the bytes written first, after Close it is
// exactly those bytes, and writes after Close fail.
func TestMmapLogWrites(t *testing.T) {
	w, name := newTestMmapLog(t, mmapExtent)
	rng := rand.New(rand.NewPCG(1, 2))
	var want []byte
	for len(want) < 2*mmapExtent+12345 {
		p := make([]byte, rng.IntN(300<<10))
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		if n, err := w.Write(p); err != nil || n != len(p) {
			t.Fatalf("Write(%d bytes) = %d, %v", len(p), n, err)
		}
		want = append(want, p...)
		if rng.IntN(4) == 0 {
			if err := w.Sync(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Filled extents are unmapped: at most the one being written and the
	// one after it stay mapped, whatever the WAL's length.
	mapped := 0
	for _, e := range w.extents {
		if e != nil {
			mapped++
		}
	}
	if n := len(w.extents); n < 3 || mapped > 2 {
		t.Fatalf("%d of %d extents mapped, want at most 2 of at least 3", mapped, n)
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(got)%mmapExtent != 0 || len(got) < len(want) || !bytes.Equal(got[:len(want)], want) ||
		len(bytes.Trim(got[len(want):], "\x00")) != 0 {
		t.Fatalf("open file: %d bytes, want the %d written then zeros to an extent boundary", len(got), len(want))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err = os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("closed file: %d bytes (%v), want the %d written", len(got), err, len(want))
	}
	if _, err := w.Write([]byte("x")); err == nil {
		t.Fatal("Write after Close succeeded")
	}
}

// TestMmapWriteReopen writes through the mapped WAL, closes and reopens
// with and without --mmap_write, and finds every key.
func TestMmapWriteReopen(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.MmapWrite = true
	db, err := Open(dir, o, Config{})
	if err != nil {
		t.Fatal(err)
	}
	b := NewBatch()
	for i := 0; i < 3000; i++ {
		b.Reset()
		b.Put([]byte(crashKey(i)), []byte(crashValue(i)))
		if err := db.Write(b, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, mmapWAL := range []bool{true, false} {
		o := testOptions()
		o.MmapWrite = mmapWAL
		db, err := Open(dir, o, Config{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3000; i++ {
			if v, ok := getString(t, db, crashKey(i)); !ok || v != crashValue(i) {
				t.Fatalf("mmap_write=%v: key %d: %q, %v", mmapWAL, i, v, ok)
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWALExtent: a WAL's extent follows its memtable's size, half of it
// rounded up to a power of two, from 64 KiB to 1 MiB.
func TestWALExtent(t *testing.T) {
	for _, c := range []struct{ buffer, want int64 }{
		{0, 64 << 10}, {64 << 10, 64 << 10}, {1 << 20, 512 << 10}, {2 << 20, 1 << 20},
		{3 << 20, 1 << 20}, {64 << 20, 1 << 20}, {1 << 40, 1 << 20},
	} {
		if got := walExtent(c.buffer); got != c.want {
			t.Errorf("walExtent(%d) = %d, want %d", c.buffer, got, c.want)
		}
	}
}

// TestCopyInOrder: copyInOrder copies like copy for every length and
// overlap of dst and src sizes.
func TestCopyInOrder(t *testing.T) {
	src := make([]byte, 300)
	for i := range src {
		src[i] = byte(i*7 + 1)
	}
	for n := 0; n <= len(src); n++ {
		for _, room := range []int{n, n + 5, max(n-3, 0)} {
			dst := make([]byte, room)
			want := make([]byte, room)
			if got, w := copyInOrder(dst, src[:n]), copy(want, src[:n]); got != w || !bytes.Equal(dst, want) {
				t.Fatalf("n %d room %d: copied %d %x, want %d %x", n, room, got, dst, w, want)
			}
		}
	}
}

// TestCopyInOrderStopsAtPrefix: a copy stopped partway (here by a fault at
// a page the copy reaches, as a kill stops it) has stored a prefix of its
// bytes. The runtime's memmove, on amd64 with AVX, stores a
// copy's first 32 bytes last: stopped, it leaves the start of a WAL
// group, its first chunk header, zero with data after it.
func TestCopyInOrderStopsAtPrefix(t *testing.T) {
	page := os.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(m)
	if err := syscall.Mprotect(m[page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	src := bytes.Repeat([]byte{0xa5}, 1000)
	const fits = 300 // bytes before the protected page
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { recover() }()
		copyInOrder(m[page-fits:], src)
		t.Fatal("the copy did not fault")
	}()
	// What was stored is a prefix of src, followed by zeros; it lacks at
	// most the word that crosses into the protected page.
	got := m[page-fits : page]
	k := bytes.IndexByte(got, 0)
	if k < 0 {
		k = fits
	}
	if k < fits-7 || !bytes.Equal(got[:k], src[:k]) || bytes.Count(got[k:], []byte{0}) != fits-k {
		t.Fatalf("stopped copy stored %x before the stop: want a prefix of at least %d bytes, then zeros", got, fits-7)
	}
}
