package lsm

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// familyNamesForTest are the families the tests open besides the default.
var familyNamesForTest = []string{"first", "second"}

// openFamilies opens dir with familyNamesForTest.
func openFamilies(t *testing.T, dir string) (*DB, []*ColumnFamily) {
	t.Helper()
	return openFamiliesWith(t, dir, testOptions(), Config{Version: "test", ColumnFamilies: familyNamesForTest})
}

// openFamiliesWith opens dir with o and cfg and returns the DB and the
// handles of the default family and of cfg.ColumnFamilies, in order.
func openFamiliesWith(t *testing.T, dir string, o *options.Options, cfg Config) (*DB, []*ColumnFamily) {
	t.Helper()
	db, err := Open(dir, o, cfg)
	if err != nil {
		t.Fatal(err)
	}
	handles := []*ColumnFamily{db.ColumnFamily(defaultFamilyName)}
	for _, name := range cfg.ColumnFamilies {
		h := db.ColumnFamily(name)
		if h == nil {
			t.Fatalf("family %s not open", name)
		}
		handles = append(handles, h)
	}
	return db, handles
}

// familyModel is what each family must hold: key -> value.
type familyModel []map[string]string

func (m familyModel) check(t *testing.T, handles []*ColumnFamily, when string) {
	t.Helper()
	for i, h := range handles {
		for k, want := range m[i] {
			var got string
			found, err := h.Get([]byte(k), func(v []byte) { got = string(v) })
			if err != nil || !found || got != want {
				t.Fatalf("%s: family %s Get(%s) = %q, %v, %v; want %q", when, h.Name(), k, got, found, err, want)
			}
		}
		it, err := h.NewIter(nil)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for ok := it.First(); ok; ok = it.Next() {
			k := string(it.Key())
			v, err := it.Value()
			if err != nil {
				t.Fatal(err)
			}
			if want, ok := m[i][k]; !ok || want != string(v) {
				t.Fatalf("%s: family %s iterator holds %s=%q, model %q (present %v)", when, h.Name(), k, v, want, ok)
			}
			keys = append(keys, k)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		if len(keys) != len(m[i]) {
			t.Fatalf("%s: family %s iterator holds %d keys, model %d", when, h.Name(), len(keys), len(m[i]))
		}
	}
}

// TestFamiliesModel writes random batches across three families (each
// batch may touch several), with flushes, compactions, reopens and crash
// images (the directory copied while the DB is open, every write synced)
// among them, and checks every family against a model after each step:
// no write lost, none resurrected, none seen in another family.
func TestFamiliesModel(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	dir := t.TempDir()
	db, handles := openFamilies(t, dir)
	model := familyModel{{}, {}, {}}
	steps := 60
	if testing.Short() {
		steps = 25
	}
	value := strings.Repeat("v", 300)
	for step := range steps {
		for range 40 {
			b := NewBatch()
			pending := familyModel{{}, {}, {}}
			deleted := []map[string]bool{{}, {}, {}}
			for range 1 + rng.Intn(6) {
				fam := rng.Intn(3)
				// Family 1 takes few writes, so it keeps old WALs alive.
				if fam == 1 && rng.Intn(8) != 0 {
					fam = 2
				}
				k := fmt.Sprintf("k%04d", rng.Intn(400))
				if rng.Intn(5) == 0 {
					b.DeleteCF(handles[fam].ID(), []byte(k))
					delete(pending[fam], k)
					deleted[fam][k] = true
					continue
				}
				v := fmt.Sprintf("%s-%d-%s", k, step, value[:rng.Intn(len(value))])
				b.PutCF(handles[fam].ID(), []byte(k), []byte(v))
				pending[fam][k] = v
				delete(deleted[fam], k)
			}
			if err := db.Write(b, WriteOptions{Sync: true}); err != nil {
				t.Fatal(err)
			}
			for i := range model {
				for k := range deleted[i] {
					delete(model[i], k)
				}
				for k, v := range pending[i] {
					model[i][k] = v
				}
			}
		}
		switch rng.Intn(5) {
		case 0:
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		case 1:
			if err := db.WaitForCompactions(); err != nil {
				t.Fatal(err)
			}
		case 2:
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			db, handles = openFamilies(t, dir)
		case 3:
			if err := db.WaitForCompactions(); err != nil {
				t.Fatal(err)
			}
			image := t.TempDir()
			copyDir(t, dir, image)
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			dir = image
			db, handles = openFamilies(t, dir)
		}
		model.check(t, handles, fmt.Sprintf("step %d", step))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestFamilyKeepsWALOfUnflushedWrites: a WAL holding a family's only copy
// of a write stays while other families flush past it, and a crash image
// replays it into that family alone; writes the other families flushed
// are not replayed twice. A read-only open of the image loads the same.
func TestFamilyKeepsWALOfUnflushedWrites(t *testing.T) {
	dir := t.TempDir()
	db, handles := openFamilies(t, dir)
	b := NewBatch()
	b.PutCF(handles[1].ID(), []byte("only"), []byte("in-wal"))
	b.PutCF(handles[0].ID(), []byte("shared"), []byte("default"))
	if err := db.Write(b, WriteOptions{Sync: true}); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 1000)
	for i := range 400 {
		b := NewBatch()
		b.Put([]byte(fmt.Sprintf("d%05d", i)), []byte(big))
		b.PutCF(handles[2].ID(), []byte(fmt.Sprintf("s%05d", i)), []byte(big))
		if err := db.Write(b, WriteOptions{Sync: true}); err != nil {
			t.Fatal(err)
		}
	}
	b = NewBatch()
	b.Delete([]byte("shared"))
	if err := db.Write(b, WriteOptions{Sync: true}); err != nil {
		t.Fatal(err)
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	db.mu.Lock()
	first, defLog := handles[1].f.logNumber, db.def.logNumber
	db.mu.Unlock()
	if defLog <= first {
		t.Fatalf("the default family's log number %d did not move past the first family's %d: the test wrote too little", defLog, first)
	}
	image := t.TempDir()
	copyDir(t, dir, image)
	if !slices.Contains(dirNames(t, image), walFileName(first)) {
		t.Fatalf("WAL %d, the first family's only copy of a write, was deleted", first)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	model := familyModel{{}, {"only": "in-wal"}, {}}
	for i := range 400 {
		model[0][fmt.Sprintf("d%05d", i)] = big
		model[2][fmt.Sprintf("s%05d", i)] = big
	}
	db, handles = openFamiliesReadOnly(t, image, familyNamesForTest)
	model.check(t, handles, "read-only, after the crash")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, handles = openFamilies(t, image)
	defer db.Close()
	model.check(t, handles, "after the crash")
}

// TestFamiliesOpenAndCreate: a DB with families opens only naming them
// all; a missing name is created; a name in use is refused; a batch
// naming a family the DB lacks is refused and changes nothing.
func TestFamiliesOpenAndCreate(t *testing.T) {
	dir := t.TempDir()
	db, handles := openFamilies(t, dir)
	b := NewBatch()
	b.PutCF(handles[2].ID(), []byte("k"), []byte("v"))
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateColumnFamily("first"); !errors.Is(err, errFamilyExists) {
		t.Fatalf("CreateColumnFamily of a name in use = %v", err)
	}
	third, err := db.CreateColumnFamily("third")
	if err != nil {
		t.Fatal(err)
	}
	b = NewBatch()
	b.PutCF(third.ID()+1, []byte("k"), []byte("v"))
	b.Put([]byte("k"), []byte("v"))
	if err := db.Write(b, WriteOptions{}); !errors.Is(err, ErrInvalidColumnFamily) {
		t.Fatalf("Write naming an unknown family = %v", err)
	}
	if _, found := getString(t, db, "k"); found {
		t.Fatal("a refused batch wrote to the default family")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, testOptions(), Config{ColumnFamilies: familyNamesForTest}); err == nil || err.Error() != "Invalid argument: Column families not opened: third" {
		t.Fatalf("Open without naming third = %v", err)
	}
	db, err = Open(dir, testOptions(), Config{ColumnFamilies: append(slices.Clone(familyNamesForTest), "third", "fourth")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range []string{"first", "second", "third", "fourth"} {
		if db.ColumnFamily(name) == nil {
			t.Fatalf("family %s not open", name)
		}
	}
	var got string
	found, err := db.ColumnFamily("second").Get([]byte("k"), func(v []byte) { got = string(v) })
	if err != nil || !found || got != "v" {
		t.Fatalf("second's k = %q, %v, %v", got, found, err)
	}
	if _, found := getString(t, db, "k"); found {
		t.Fatal("second's write is seen in the default family")
	}
}

func walFileName(num uint64) string { return fmt.Sprintf("%06d.log", num) }

// TestFamiliesConcurrentWriters: writers commit batches across families
// at once (some alone, some in groups with default-only batches) while
// readers read; every write ends up in its family only. Run with -race,
// it checks the commit leader's routing of family batches.
func TestFamiliesConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	db, handles := openFamilies(t, dir)
	defer db.Close()
	const writers, batches = 4, 300
	done := make(chan error, writers+1)
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			for _, h := range handles {
				if _, err := h.Get([]byte("w0-0000"), func([]byte) {}); err != nil {
					done <- err
					return
				}
			}
		}
	}()
	for w := range writers {
		go func() {
			for i := range batches {
				b := NewBatch()
				k := []byte(fmt.Sprintf("w%d-%04d", w, i))
				if i%2 == 0 {
					b.PutCF(handles[1+i%4/2].ID(), k, k)
				}
				b.Put(k, k)
				if err := db.Write(b, WriteOptions{}); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range writers {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	model := familyModel{{}, {}, {}}
	for w := range writers {
		for i := range batches {
			k := fmt.Sprintf("w%d-%04d", w, i)
			model[0][k] = k
			if i%2 == 0 {
				model[1+i%4/2][k] = k
			}
		}
	}
	model.check(t, handles, "after the writers")
}
