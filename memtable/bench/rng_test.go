package bench

import "testing"

func TestMT64(t *testing.T) {
	// Reference outputs of std::mt19937_64, printed by GCC 12's libstdc++.
	if got := newMT64(0).next(); got != 2947667278772165694 {
		t.Errorf("mt19937_64(0) first = %d", got)
	}
	if got := newMT64(2).next(); got != 16668552215174154828 {
		t.Errorf("mt19937_64(2) first = %d", got)
	}
	if got := newMT64(7).next(); got != 13915952638675311015 {
		t.Errorf("mt19937_64(7) first = %d", got)
	}
	r := newMT64(5489)
	var x uint64
	for i := 0; i < 10000; i++ {
		x = r.next()
	}
	if x != 9981545732273789042 {
		t.Errorf("mt19937_64 10000th output = %d", x)
	}
}

func TestMT32(t *testing.T) {
	r := newMT32(5489)
	var x uint32
	for i := 0; i < 10000; i++ {
		x = r.next()
	}
	if x != 4123659995 {
		t.Errorf("mt19937 10000th output = %d", x)
	}
}

// TestShuffle compares with std::shuffle(v, std::mt19937(seed)) from GCC
// 12's libstdc++ on v = 0..n-1: first element and FNV-1a of the result.
// n = 70000 takes the one-index-per-draw path, the others the paired one.
func TestShuffle(t *testing.T) {
	cases := []struct {
		n     int
		seed  uint32
		first uint64
		hash  uint64
	}{
		{1, 0, 0, 4953163356653287321},
		{2, 0, 0, 11126444148914698056},
		{2, 1, 1, 11125488673309971922},
		{3, 0, 2, 10947662795537084930},
		{3, 1, 1, 11572782435010236528},
		{10, 0, 0, 7953043442730882908},
		{10, 1, 9, 13697048458780594430},
		{10, 301, 9, 17710432376140386234},
		{11, 0, 10, 18301681184639396236},
		{11, 301, 3, 2443783910479607782},
		{1000, 0, 882, 15900359782384252147},
		{1000, 1, 735, 16309765574895793183},
		{1000, 301, 992, 11353675092890574361},
		{70000, 0, 26990, 6725114845429122027},
		{70000, 1, 7199, 8998634259488882395},
		{70000, 301, 59679, 271245937315008585},
	}
	for _, c := range cases {
		v := make([]uint64, c.n)
		for i := range v {
			v[i] = uint64(i)
		}
		shuffle(v, c.seed)
		h := uint64(1469598103934665603)
		for _, x := range v {
			h ^= x
			h *= 1099511628211
		}
		if v[0] != c.first || h != c.hash {
			t.Errorf("shuffle(%d, seed %d): first %d hash %d, want %d %d", c.n, c.seed, v[0], h, c.first, c.hash)
		}
	}
}

func TestParkMiller(t *testing.T) {
	// Random(301): seed 301*16807 = 5058907, then 5058907*16807 mod (2^31-1).
	r := newParkMiller(301)
	if got := r.next(); got != 5058907 {
		t.Errorf("first = %d", got)
	}
	if got, want := r.next(), uint32(uint64(5058907)*16807%2147483647); got != want {
		t.Errorf("second = %d, want %d", got, want)
	}
	s := newParkMiller(301).randomString(1000)
	for _, c := range s {
		if c < ' ' || c > '~' {
			t.Fatalf("non-printable byte %d", c)
		}
	}
}
