package kvbytes

import (
	"bytes"
	"strings"
	"testing"
	"unsafe"
)

func TestRoundTrip(t *testing.T) {
	for _, c := range []struct{ key, value string }{
		{"", ""}, {"ab", "xyz"}, {strings.Repeat("k", 127), ""}, {strings.Repeat("k", 128), strings.Repeat("v", 20000)},
	} {
		size := Size(uint32(len(c.key)), uint32(len(c.value)))
		buf := make([]byte, size+1)
		buf[size] = 0xee
		p := unsafe.Pointer(&buf[0])
		Put(p, []byte(c.key), []byte(c.value))
		if string(Key(p)) != c.key || string(Value(p)) != c.value || buf[size] != 0xee {
			t.Fatalf("%d-byte key, %d-byte value: read back %d and %d bytes", len(c.key), len(c.value), len(Key(p)), len(Value(p)))
		}
		if got := Len(p); got != size {
			t.Fatalf("%d-byte key, %d-byte value: Len %d, want %d", len(c.key), len(c.value), got, size)
		}
	}
}

func TestLayout(t *testing.T) {
	buf := make([]byte, 7)
	Put(unsafe.Pointer(&buf[0]), []byte("ab"), []byte("xyz"))
	if want := []byte{2, 'a', 'b', 3, 'x', 'y', 'z'}; !bytes.Equal(buf, want) {
		t.Fatalf("Put wrote % x, want % x", buf, want)
	}
}

// TestPutFillsItsAllocation writes entries that end exactly at the end of
// their allocation, the case of a memtable node closing its chunk: no
// pointer Put or the readers form may point past it (the race detector's
// checkptr stops the test on one that does).
func TestPutFillsItsAllocation(t *testing.T) {
	for _, c := range []struct{ key, value string }{{"k00001", ""}, {"", ""}, {"k", "v"}, {"", "value"}} {
		buf := make([]byte, Size(uint32(len(c.key)), uint32(len(c.value))))
		p := unsafe.Pointer(&buf[0])
		Put(p, []byte(c.key), []byte(c.value))
		if string(Key(p)) != c.key || string(Value(p)) != c.value || Len(p) != uint64(len(buf)) {
			t.Fatalf("%q=%q read back as %q=%q, Len %d", c.key, c.value, Key(p), Value(p), Len(p))
		}
	}
}
