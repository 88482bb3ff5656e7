package dbbench

import (
	"bytes"
	"testing"
)

// TestRunValues checks that a run's values come out back to back, as one
// piece of the generator's buffer while they follow each other there (no
// copy), and copied once one does not (the generator started over), with
// empty values anywhere.
func TestRunValues(t *testing.T) {
	data := []byte("abcdefghijklmnopqrstuvwxyz")
	cases := []struct {
		name   string
		vals   [][]byte
		copied bool
	}{
		{"consecutive", [][]byte{data[0:3], data[3:5], data[5:5], data[5:9]}, false},
		{"empty first", [][]byte{data[2:2], data[4:6], data[6:8]}, false},
		{"started over", [][]byte{data[20:24], data[24:26], data[0:4], data[4:6]}, true},
		{"gap", [][]byte{data[0:2], data[3:5]}, true},
		{"all empty", [][]byte{data[1:1], data[7:7]}, false},
	}
	var v runValues
	for _, c := range cases {
		v.reset()
		var want []byte
		for _, val := range c.vals {
			v.add(val)
			want = append(want, val...)
		}
		if got := v.all(); !bytes.Equal(got, want) || v.copied != c.copied {
			t.Errorf("%s: %q (copied %v), want %q (copied %v)", c.name, got, v.copied, want, c.copied)
		}
		if c.copied || len(want) == 0 {
			continue
		}
		for _, val := range c.vals {
			if len(val) > 0 {
				if &v.all()[0] != &val[0] {
					t.Errorf("%s: the values were copied", c.name)
				}
				break
			}
		}
	}
}
