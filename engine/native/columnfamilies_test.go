package native

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/lsm"
	"github.com/godbbench/godbbench/options"
)

func getFamily(t *testing.T, db engine.DB, key string) (string, bool) {
	t.Helper()
	var got string
	found, err := db.Get([]byte(key), func(v []byte) { got = string(v) })
	if err != nil {
		t.Fatal(err)
	}
	return got, found
}

// TestColumnFamilies: with --num_column_families=3 and one hot family
// more than the default, the DB opens families 0 and 1, creates 2 on
// demand, writes each family through its handle and through one batch
// naming several, keeps every write in its own family across a reopen,
// refuses a batch naming a family not created, and opens all three
// read-only.
func TestColumnFamilies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	o := options.Default()
	o.NumColumnFamilies, o.NumHotColumnFamilies = 3, 2
	open := func() (engine.DB, engine.ColumnFamilies) {
		d, err := Opener{}.Open(dir, o, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return d, d.(engine.ColumnFamilies)
	}
	db, cfs := open()
	if cfs.ColumnFamily(1) == nil || cfs.ColumnFamily(2) != nil {
		t.Fatalf("open families: 1 %v, 2 %v; want 1 open, 2 not yet", cfs.ColumnFamily(1), cfs.ColumnFamily(2))
	}
	b := db.NewBatch()
	b.(engine.ColumnFamilyBatch).PutCF(2, []byte("k"), []byte("v2"))
	if err := db.Apply(b, nil); !errors.Is(err, lsm.ErrInvalidColumnFamily) {
		t.Fatalf("a batch naming family 2 before it exists: %v", err)
	}
	two, err := cfs.CreateColumnFamily(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfs.ColumnFamily(1).Put([]byte("k"), []byte("v1"), nil); err != nil {
		t.Fatal(err)
	}
	b = db.NewBatch()
	b.Put([]byte("k"), []byte("v0"))
	b.(engine.ColumnFamilyBatch).PutCF(2, []byte("k"), []byte("v2"))
	b.(engine.ColumnFamilyBatch).DeleteCF(1, []byte("gone"))
	if err := db.Apply(b, nil); err != nil {
		t.Fatal(err)
	}
	if v, ok := getFamily(t, two, "k"); !ok || v != "v2" {
		t.Fatalf("family 2 k = %q %v", v, ok)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	o.NumHotColumnFamilies = 3
	for _, readOnly := range []bool{false, true} {
		o.ReadOnly = readOnly
		db, cfs = open()
		for i, want := range []string{"v0", "v1", "v2"} {
			if v, ok := getFamily(t, cfs.ColumnFamily(i), "k"); !ok || v != want {
				t.Errorf("after reopening (read-only %v), family %d k = %q %v; want %q", readOnly, i, v, ok, want)
			}
		}
		if readOnly {
			if err := cfs.ColumnFamily(2).Put([]byte("k"), nil, nil); err == nil || err.Error() != readOnlyWords {
				t.Errorf("Put to a family of a read-only DB: %v, want %q", err, readOnlyWords)
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFamilyProperties: a family other than the default answers the
// stats and level properties from its own figures (its name in the
// stats' titles, its tables in the file counts), and the DB-wide ones as
// the DB does.
func TestFamilyProperties(t *testing.T) {
	o := options.Default()
	o.NumColumnFamilies = 2
	db, err := Opener{}.Open(filepath.Join(t.TempDir(), "db"), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	one := db.(engine.ColumnFamilies).ColumnFamily(1)
	if err := one.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		db    engine.DB
		files string
	}{{db, "0"}, {one, "1"}} {
		if n, ok := c.db.Property("rocksdb.num-files-at-level0"); !ok || n != c.files {
			t.Errorf("num-files-at-level0 = %q %v, want %s", n, ok, c.files)
		}
	}
	for _, name := range []string{"rocksdb.cfstats", "rocksdb.stats"} {
		s, ok := one.Property(name)
		if !ok || !strings.Contains(s, "** Compaction Stats [column_family_name_000001] **") || strings.Contains(s, "[default]") {
			t.Errorf("%s of family 1 (%v):\n%s", name, ok, s)
		}
		if withDB := strings.Contains(s, "** DB Stats **"); withDB != (name == "rocksdb.stats") {
			t.Errorf("%s of family 1 holds DB stats: %v", name, withDB)
		}
	}
	if got, ok := one.Property("rocksdb.block-cache-capacity"); !ok || got != "8388608" {
		t.Errorf("block-cache-capacity of family 1 = %q %v", got, ok)
	}
}
