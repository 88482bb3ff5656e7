package cspp

import (
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestLayoutExample checks the arena example of the package documentation.
func TestLayoutExample(t *testing.T) {
	tr := New(0)
	if err := tr.Add(7, base.KindSet, []byte("ab"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := tr.Add(8, base.KindDelete, []byte("ac"), nil); err != nil {
		t.Fatal(err)
	}
	want := map[uint32]uint32{
		1: 0x48, 2: 0, 100: 0x115,
		259: 0x8030, 260: 0x106, 261: 0x62,
		262: 0x107, 263: 1, 264: 0x701, 265: 0, 266: 0x10c, 267: 1, 268: 0x76,
		269: 0, 270: 0x10f, 271: 0x110, 272: 1, 273: 0x800, 274: 0, 275: 0, 276: 0,
		277: 0x82, 278: 0, 279: 0x6362, 280: 0x11a, 281: 0x10d,
		282: 0, 283: 0x106,
	}
	for slot, v := range want {
		if got := tr.a.slots[slot]; got != v {
			t.Errorf("slot %d = %#x, want %#x", slot, got, v)
		}
	}
	if used := tr.a.used(); used != 284 {
		t.Errorf("used %d slots, want 284", used)
	}
}
