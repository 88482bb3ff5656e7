//go:build rocksdb

package rocksdb

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// TestFamilyOperations: every operation of a column family reaches that
// family and no other, and the DB's own operations reach the default one:
// the two share one implementation that takes the family's handle.
func TestFamilyOperations(t *testing.T) {
	o := testOptions()
	o.NumColumnFamilies = 2
	o.MergeOperator = "uint64add"
	o.WriteBufferSize = 16 << 20 // no flush before the test's own
	db, _ := openFeatures(t, o)
	fam := db.ColumnFamily(1)
	if fam == nil {
		t.Fatal("no column family 1")
	}
	get := func(d engine.DB, key string) string {
		t.Helper()
		var got []byte
		found, err := d.Get([]byte(key), func(v []byte) { got = append([]byte(nil), v...) })
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			return "<absent>"
		}
		return string(got)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	big := string(bytes.Repeat([]byte{'v'}, 2*maxValueBuf))
	must(fam.Put([]byte("a"), []byte("family"), nil))
	must(db.Put([]byte("a"), []byte("default"), nil))
	must(fam.Put([]byte("z-big"), []byte(big), nil))
	if a, d := get(fam, "a"), get(db, "a"); a != "family" || d != "default" {
		t.Fatalf("Get a: family %q, default %q", a, d)
	}
	if got := get(fam, "z-big"); got != big {
		t.Fatalf("Get z-big in the family: %d bytes, want %d", len(got), len(big))
	}
	if got := get(db, "z-big"); got != "<absent>" {
		t.Fatalf("Get z-big in the default family: %d bytes, want absent", len(got))
	}

	eight := func(n uint64) []byte { return binary.LittleEndian.AppendUint64(nil, n) }
	must(fam.Merge([]byte("m"), eight(2), nil))
	must(fam.Merge([]byte("m"), eight(3), nil))
	must(db.Merge([]byte("m"), eight(7), nil))
	if f, d := get(fam, "m"), get(db, "m"); f != string(eight(5)) || d != string(eight(7)) {
		t.Fatalf("merged m: family %x, default %x", f, d)
	}

	must(fam.Delete([]byte("a"), nil))
	must(fam.Put([]byte("s"), []byte("1"), nil))
	must(db.Put([]byte("s"), []byte("2"), nil))
	must(fam.SingleDelete([]byte("s"), nil))
	if a, d, s, ds := get(fam, "a"), get(db, "a"), get(fam, "s"), get(db, "s"); a != "<absent>" || d != "default" || s != "<absent>" || ds != "2" {
		t.Fatalf("after deletes in the family: a %q and %q, s %q and %q", a, d, s, ds)
	}

	for _, k := range []string{"b", "c", "d"} {
		must(fam.Put([]byte(k), []byte(k), nil))
		must(db.Put([]byte(k), []byte(k), nil))
	}
	must(fam.DeleteRange([]byte("b"), []byte("d"), nil))
	must(db.DeleteRange([]byte("c"), []byte("e"), nil))
	var fams, defs string
	for _, k := range []string{"b", "c", "d"} {
		fams += get(fam, k) + " "
		defs += get(db, k) + " "
	}
	if fams != "<absent> <absent> d " || defs != "b <absent> <absent> " {
		t.Fatalf("after range deletions: family %q, default %q", fams, defs)
	}

	must(fam.Flush())
	level0 := func(d engine.DB) string {
		v, ok := d.Property("rocksdb.num-files-at-level0")
		if !ok {
			t.Fatal("no rocksdb.num-files-at-level0")
		}
		return v
	}
	if f, d := level0(fam), level0(db); f != "1" || d != "0" {
		t.Fatalf("after flushing the family: level-0 files %s in it, %s in the default family", f, d)
	}
	if got := get(fam, "z-big"); got != big {
		t.Fatalf("Get z-big in the family from its table: %d bytes", len(got))
	}
}
