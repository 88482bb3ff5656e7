package reliability

import (
	"bytes"
	"fmt"
	"strconv"
)

// Workload is a deterministic sequence of writes over a fixed key space.
// Write w (0, 1, 2, ...) puts or deletes key Op(w); a put's value names w, so
// every value read back says which write produced it and can be checked
// byte for byte. Writes are applied in atomic batches of Batch writes:
// batch b holds writes [b*Batch, (b+1)*Batch).
type Workload struct {
	Seed      uint64
	Keys      int // size of the key space
	ValueSize int // bytes per value (at least 16)
	Batch     int // writes per batch
}

// DefaultWorkload is the workload the probes use: 1,500 keys, 100-byte
// values, 4 writes per batch, about one write in ten a delete.
func DefaultWorkload(seed uint64) Workload {
	return Workload{Seed: seed, Keys: 1500, ValueSize: 100, Batch: 4}
}

func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Op returns the key index write w touches and whether it deletes it.
func (wl Workload) Op(w int) (key int, del bool) {
	h := mix(uint64(w) + wl.Seed*0x9e3779b97f4a7c15)
	return int(h % uint64(wl.Keys)), (h>>40)%10 == 0
}

// Key returns the key with index i ("key00000042").
func (wl Workload) Key(i int) []byte { return []byte(fmt.Sprintf("key%08d", i)) }

// KeyIndex parses a key made by Key; ok is false for any other bytes.
func (wl Workload) KeyIndex(k []byte) (int, bool) {
	if len(k) != 11 || !bytes.HasPrefix(k, []byte("key")) {
		return 0, false
	}
	i, err := strconv.Atoi(string(k[3:]))
	if err != nil || i < 0 || i >= wl.Keys {
		return 0, false
	}
	return i, true
}

// Value returns the value write w puts: "w00000042." followed by filler
// derived from w, ValueSize bytes in all.
func (wl Workload) Value(w int) []byte {
	v := make([]byte, max(wl.ValueSize, 16))
	n := copy(v, fmt.Sprintf("w%08d.", w))
	x := mix(uint64(w) ^ wl.Seed)
	for i := n; i < len(v); i++ {
		if (i-n)%8 == 0 {
			x = mix(x + 1)
		}
		v[i] = 'a' + byte(x>>(8*((i-n)%8)))%26
	}
	return v
}

// Writer returns the write that produced value v for key i, or -1 when no
// write of the workload puts exactly v on key i (invented or damaged data).
func (wl Workload) Writer(i int, v []byte) int {
	if len(v) < 10 || v[0] != 'w' || v[9] != '.' {
		return -1
	}
	w, err := strconv.Atoi(string(v[1:9]))
	if err != nil || w < 0 {
		return -1
	}
	if k, del := wl.Op(w); k != i || del || !bytes.Equal(v, wl.Value(w)) {
		return -1
	}
	return w
}
