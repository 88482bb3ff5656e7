package lsm

import (
	"fmt"
	"testing"
)

func collect(t *testing.T, db *DB, reverse bool) []string {
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	if reverse {
		for ok := it.Last(); ok; ok = it.Prev() {
			v, err := it.Value()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(it.Key())+"="+string(v))
		}
	} else {
		for ok := it.First(); ok; ok = it.Next() {
			v, _ := it.Value()
			out = append(out, string(it.Key())+"="+string(v))
		}
	}
	return out
}

func TestReverseIteration(t *testing.T) {
	for _, stage := range []string{"mem", "flushed", "compacted"} {
		t.Run(stage, func(t *testing.T) {
			db := mustOpen(t, t.TempDir(), testOptions())
			defer db.Close()
			for round := 0; round < 3; round++ {
				for i := 0; i < 20; i++ {
					put(t, db, fmt.Sprintf("k%02d", i), fmt.Sprintf("v%d.%d", i, round))
				}
				if stage != "mem" {
					db.Flush()
				}
			}
			del(t, db, "k05")
			if stage == "compacted" {
				db.Compact(nil, nil, -1)
			}
			fwd := collect(t, db, false)
			rev := collect(t, db, true)
			if len(fwd) != 19 || len(rev) != 19 {
				t.Fatalf("forward %v\nreverse %v", fwd, rev)
			}
			for i := range fwd {
				if fwd[i] != rev[len(rev)-1-i] {
					t.Fatalf("forward %v\nreverse %v", fwd, rev)
				}
			}
		})
	}
}
