package native

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// TestPrefixReadOptions checks that db_bench's prefix read options reach
// the DB's iterators: --prefix_same_as_start ends a walk at the seek
// key's prefix, a plain walk goes on, and --auto_prefix_mode changes no
// result.
func TestPrefixReadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(o *options.Options)
		want string
	}{
		{"total order", func(*options.Options) {}, "p02:0 p02:1 p04:0 p04:1"},
		{"prefix_same_as_start", func(o *options.Options) { o.Read.PrefixSameAsStart = true }, "p02:0 p02:1"},
		{"with total_order_seek", func(o *options.Options) { o.Read.PrefixSameAsStart, o.Read.TotalOrderSeek = true, true }, "p02:0 p02:1"},
		{"auto_prefix_mode", func(o *options.Options) { o.Read.AutoPrefixMode = true }, "p02:0 p02:1 p04:0 p04:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := options.Small()
			o.PrefixSize, o.MemtableBloomSizeRatio = 4, 0.1
			tc.set(o)
			db, err := Opener{}.Open(t.TempDir(), o, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, p := range []int{0, 2, 4} {
				for k := range 2 {
					if err := db.Put(fmt.Appendf(nil, "p%02d:%d", p, k), []byte("v"), &engine.WriteOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				if p == 2 {
					if err := db.Flush(); err != nil {
						t.Fatal(err)
					}
				}
			}
			it, err := db.NewIter(nil)
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			var got []string
			for ok := it.SeekGE([]byte("p02:")); ok; ok = it.Next() {
				got = append(got, string(it.Key()))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("walk from p02: %q, want %q", got, tc.want)
			}
			if it.SeekGE([]byte("p03:")) && o.Read.PrefixSameAsStart {
				t.Errorf("prefix seek to the absent p03 landed on %q", it.Key())
			}
		})
	}
}
