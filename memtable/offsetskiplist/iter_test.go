package offsetskiplist

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestNextLeavesTagUnread checks the two states Next can leave a node in
// when versions are added to it while the iterator stands there: with its
// tag unread (the iterator is at the newest version when Seq first looks),
// and with it read while inline (the older versions added since follow).
func TestNextLeavesTagUnread(t *testing.T) {
	for _, c := range []struct {
		name    string
		readSeq bool // call Seq on "b" before the adds
		want    string
	}{
		{"unread", false, "b20 b10 b5 c10"},
		{"read inline", true, "b10 b5 c10"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := New(1 << 20)
			add := func(key string, seq uint64) {
				t.Helper()
				if err := l.Add(seq, base.KindSet, []byte(key), []byte(fmt.Sprint(key, seq))); err != nil {
					t.Fatal(err)
				}
			}
			for _, k := range []string{"a", "b", "c"} {
				add(k, 10)
			}
			it := l.NewIter()
			if !it.First() || !it.Next() || string(it.Key()) != "b" {
				t.Fatal("no entry b")
			}
			if c.readSeq && it.Seq() != 10 {
				t.Fatalf("b at seq %d, want 10", it.Seq())
			}
			add("b", 5)
			add("b", 20)
			var got []string
			for ok := true; ok; ok = it.Next() {
				v := fmt.Sprint(string(it.Key()), it.Seq())
				if string(it.Value()) != v {
					t.Fatalf("entry %s has value %q", v, it.Value())
				}
				got = append(got, v)
			}
			if s := fmt.Sprint(got); s != "["+c.want+"]" {
				t.Fatalf("entries %s, want [%s]", s, c.want)
			}
		})
	}
}

// TestSeekPastNewerVersions seeks into a key whose versions are all newer
// than the snapshot, so Seek passes them over onto the next key.
func TestSeekPastNewerVersions(t *testing.T) {
	l := New(1 << 20)
	for _, e := range []struct {
		key string
		seq uint64
	}{{"a", 10}, {"a", 12}, {"a", 11}, {"b", 13}} {
		if err := l.Add(e.seq, base.KindSet, []byte(e.key), nil); err != nil {
			t.Fatal(err)
		}
	}
	it := l.NewIter()
	for _, c := range []struct {
		seq  uint64
		want string
	}{{12, "a12"}, {11, "a11"}, {10, "a10"}, {9, "b13"}} {
		if !it.Seek([]byte("a"), c.seq) {
			t.Fatalf("Seek(a, %d) found nothing", c.seq)
		}
		if got := fmt.Sprint(string(it.Key()), it.Seq()); got != c.want {
			t.Fatalf("Seek(a, %d) at %s, want %s", c.seq, got, c.want)
		}
	}
	l2 := New(1 << 20)
	if err := l2.Add(5, base.KindSet, []byte("a"), nil); err != nil {
		t.Fatal(err)
	}
	if it := l2.NewIter(); it.Seek([]byte("a"), 4) {
		t.Fatalf("Seek(a, 4) at %s %d, want nothing", it.Key(), it.Seq())
	}
}
