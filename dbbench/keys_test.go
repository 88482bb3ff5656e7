package dbbench

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/godbbench/godbbench/internal/cxxrand"
)

func TestKeyLayouts(t *testing.T) {
	cases := []struct {
		g    KeyGen
		v    int64
		want string
	}{
		// §7.1: 16-byte key 20000.
		{KeyGen{keySize: 16, num: 1000000}, 20000, "0000000000004e203030303030303030"},
		{KeyGen{keySize: 16, num: 1000000}, 0x4E1F, "0000000000004e1f3030303030303030"},
		// Short keys keep the low-order bytes.
		{KeyGen{keySize: 4, num: 100}, 0x01020304, "01020304"},
		{KeyGen{keySize: 8, num: 100}, 1, "0000000000000001"},
		{KeyGen{keySize: 13, num: 100}, 2, "00000000000000023030303030"},
		{KeyGen{keySize: 27, num: 100}, 3, "000000000000000330303030303030303030303030303030303030"},
		// num 100, K 10, prefix_size 4: v=10 -> 00000000 000000000000000A 30303030.
		{KeyGen{keySize: 16, prefixSize: 4, keysPerPrefix: 10, num: 100}, 10, "00000000000000000000000a30303030"},
		// prefix_size 10, key_size 20, v=0.
		{KeyGen{keySize: 20, prefixSize: 10, keysPerPrefix: 10, num: 100}, 0, "0000000000000000303000000000000000003030"},
	}
	for i, c := range cases {
		b := c.g.NewBuf()
		c.g.Fill(b, c.v)
		if got := hex.EncodeToString(b); got != c.want {
			t.Errorf("case %d: got %s want %s", i, got, c.want)
		}
		dirty := bytes.Repeat([]byte{0xff}, c.g.keySize)
		if c.g.Fill(dirty, c.v); !bytes.Equal(dirty, b) {
			t.Errorf("case %d: Fill over a used buffer gave %x", i, dirty)
		}
		f := c.g.NewBuf()
		c.g.Fill(f, 12345)
		c.g.FillFast(f, c.v)
		if !bytes.Equal(f, b) {
			t.Errorf("case %d: FillFast differs", i)
		}
	}
}

func TestKeysSortNumerically(t *testing.T) {
	g := KeyGen{keySize: 16, num: 1 << 40}
	a, b := g.NewBuf(), g.NewBuf()
	for v := int64(0); v < 5000; v += 7 {
		g.Fill(a, v)
		g.Fill(b, v+1+v*3)
		if bytes.Compare(a, b) >= 0 {
			t.Fatalf("%d !< %d", v, v+1+v*3)
		}
	}
}

func TestValueGenerator(t *testing.T) {
	data := buildValueData(0.5, 100)
	if len(data) != 1048600 {
		t.Fatalf("buffer %d bytes, want 1048600", len(data))
	}
	// ratio 0.5: every 100-byte piece is a 50-byte string written twice.
	for off := 0; off < 1000; off += 100 {
		if !bytes.Equal(data[off:off+50], data[off+50:off+100]) {
			t.Fatalf("piece at %d not repeated", off)
		}
		for _, c := range data[off : off+100] {
			if c < ' ' || c > '~' {
				t.Fatalf("unprintable byte %d", c)
			}
		}
	}
	// The first character is ' ' + (ParkMiller(301).Next() % 95).
	r := cxxrand.NewParkMiller(301)
	if want := byte(' ' + r.Next()%95); data[0] != want {
		t.Fatalf("first byte %q want %q", data[0], want)
	}
	g := newValueGen(&valueShape{fixed: 100, dist: "fixed"}, data)
	v1 := g.Generate()
	v2 := g.Generate()
	if len(v1) != 100 || !bytes.Equal(v1, data[:100]) || !bytes.Equal(v2, data[100:200]) {
		t.Fatal("values must be consecutive slices of the buffer")
	}
	// Wrap-around when the next slice would run past the end.
	g.pos = len(data) - 50
	if v := g.Generate(); !bytes.Equal(v, data[:100]) {
		t.Fatal("generator must wrap to the start")
	}
	if len(buildValueData(0.001, 10)) != 1048600 {
		t.Fatal("tiny ratio still builds 1 MiB")
	}
}
