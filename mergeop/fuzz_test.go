package mergeop

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
	"testing"
)

// FuzzUint64Add checks uint64add against its definition: every result is 8
// bytes holding the wrapping sum of the 8-byte inputs, others counting 0,
// and a partial merge folded into a full merge changes nothing.
func FuzzUint64Add(f *testing.F) {
	f.Add([]byte("12345678"), true, []byte("\x01\x00\x00\x00\x00\x00\x00\x00"), []byte("abc"))
	f.Add([]byte(""), false, []byte(""), []byte("\xff\xff\xff\xff\xff\xff\xff\xff"))
	op := uint64AddOperator{}
	f.Fuzz(func(t *testing.T, existing []byte, has bool, a, b []byte) {
		var want uint64
		for i, v := range [][]byte{existing, a, b} {
			if len(v) == 8 && (i > 0 || has) {
				want += binary.LittleEndian.Uint64(v)
			}
		}
		full, err := op.FullMerge(nil, nil, existing, has, [][]byte{a, b})
		if err != nil || len(full) != 8 || binary.LittleEndian.Uint64(full) != want {
			t.Fatalf("FullMerge(%x, %v, %x, %x) = %x, %v; want sum %d", existing, has, a, b, full, err, want)
		}
		partial, ok := op.PartialMerge(nil, nil, [][]byte{a, b})
		if !ok {
			t.Fatal("uint64add declined a partial merge")
		}
		folded, err := op.FullMerge(nil, nil, existing, has, [][]byte{partial})
		if err != nil || !bytes.Equal(folded, full) {
			t.Fatalf("full merge after partial merge %x, want %x", folded, full)
		}
	})
}

// FuzzSortList checks sortlist: it never panics, fails exactly when an
// operand cannot be read, writes a list every value of which a strict reader
// takes back, keeps every value, and merges sorted lists into a sorted one.
func FuzzSortList(f *testing.F) {
	f.Add([]byte("1,2,3"), []byte("-5,4"))
	f.Add([]byte(" 7x"), []byte(""))
	f.Add([]byte("2147483647"), []byte("1,\x00"))
	op := sortListOperator{}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		out, err := op.FullMerge(nil, nil, nil, false, [][]byte{a, b})
		la, errA := parseIntList(a)
		lb, errB := parseIntList(b)
		if (err == nil) != (errA == nil && errB == nil) {
			t.Fatalf("FullMerge(%q, %q) error %v, operand errors %v, %v", a, b, err, errA, errB)
		}
		if err != nil {
			return
		}
		for _, list := range [][]int32{la, lb} {
			if len(list) == 0 {
				t.Fatalf("an accepted operand read as an empty list: %q %q", a, b)
			}
		}
		var values []int32
		for _, field := range strings.Split(string(out), ",") {
			v, perr := strconv.ParseInt(field, 10, 32)
			if perr != nil {
				t.Fatalf("result %q is not an int list: %v", out, perr)
			}
			values = append(values, int32(v))
		}
		if len(values) != len(la)+len(lb) {
			t.Fatalf("result %q has %d values, operands %d and %d", out, len(values), len(la), len(lb))
		}
		if sorted(la) && sorted(lb) && !sorted(values) {
			t.Fatalf("sorted operands %v %v merged unsorted: %v", la, lb, values)
		}
	})
}

func sorted(list []int32) bool {
	for i := 1; i < len(list); i++ {
		if list[i] < list[i-1] {
			return false
		}
	}
	return true
}
