package lsm

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// layeredOptions keeps every table where the test puts it.
func layeredOptions() *options.Options {
	o := testOptions()
	o.DisableAutoCompactions = true
	o.WriteBufferSize = 1 << 20
	o.TargetFileSizeBase = 16 << 10
	return o
}

// compactLevel compacts all of level's tables into level+1.
func compactLevel(t *testing.T, db *DB, level int) {
	t.Helper()
	db.mu.Lock()
	defer db.mu.Unlock()
	inputs := append([]*fileMeta(nil), db.def.current.levels[level]...)
	c := db.newCompaction(db.def, level, level+1, inputs)
	if c == nil {
		t.Fatalf("no compaction of level %d", level)
	}
	c.markCompacting(true)
	if err := db.runCompaction(c); err != nil {
		t.Fatal(err)
	}
}

// layeredDBWith writes a DB in dir with options o whose versions are
// spread over L5, L1, two L0 tables and the WAL, each round overwriting and
// deleting keys that older rounds wrote, and returns what a reader must see.
func layeredDBWith(t *testing.T, dir string, o *options.Options) model {
	db := mustOpen(t, dir, o)
	m := model{}
	rng := rand.New(rand.NewSource(1))
	const keys = 1500
	round := func(r int, frac float64) {
		for i := 0; i < keys; i++ {
			k := fmt.Sprintf("key%05d", i)
			switch x := rng.Float64(); {
			case r == 0 || x < frac:
				v := fmt.Sprintf("r%d-%d-%040d", r, i, rng.Int63())
				put(t, db, k, v)
				m[k] = v
			case x < frac+0.1:
				del(t, db, k)
				delete(m, k)
			}
		}
	}
	for r := 0; r < 7; r++ {
		round(r, 0.3)
		switch r {
		case 1:
			// Rounds 0-1 go to L5.
			if err := db.Compact(nil, nil, 5); err != nil {
				t.Fatal(err)
			}
		case 3:
			// Rounds 2-3 go to L1.
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
			compactLevel(t, db, 0)
		case 4, 5:
			// Rounds 4 and 5 stay in one L0 table each; round 6 stays in
			// the WAL.
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		default:
			if r == 0 || r == 2 {
				if err := db.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	v := db.def.current
	if len(v.levels[0]) != 2 || len(v.levels[1]) == 0 || len(v.levels[5]) < 2 {
		t.Fatalf("layout: L0 %d, L1 %d, L5 %d tables", len(v.levels[0]), len(v.levels[1]), len(v.levels[5]))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return m
}

// damageTable flips a byte of, truncates or deletes one random table file.
func damageTable(t *testing.T, rng *rand.Rand, path string) string {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	size := int(st.Size())
	switch kind := rng.Intn(4); kind {
	case 0:
		off := rng.Intn(size)
		flipByte(t, path, off)
		return fmt.Sprintf("flip %s at %d of %d", filepath.Base(path), off, size)
	case 1:
		// Meta blocks and footer sit in the last part of the file.
		off := size - 1 - rng.Intn(min(size, 512))
		flipByte(t, path, off)
		return fmt.Sprintf("flip %s at %d of %d (tail)", filepath.Base(path), off, size)
	case 2:
		n := rng.Intn(size)
		if err := os.Truncate(path, int64(n)); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("truncate %s to %d of %d", filepath.Base(path), n, size)
	default:
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("delete %s", filepath.Base(path))
	}
}

// scanChecker walks it and requires every entry to be the model's next one
// in the walk's direction, and a walk that ends early to end with an error
// that stays.
type scanChecker struct {
	t     *testing.T
	keys  []string // the model's keys, ascending
	m     model
	label string
	errs  int
}

// check verifies a walk that started at index i of keys (moving by step)
// and stepped at most n times; ok is the positioning's result.
func (c *scanChecker) check(it *Iterator, ok bool, i, step, n int, what string) {
	c.t.Helper()
	for ; ok && n > 0; n-- {
		if i < 0 || i >= len(c.keys) {
			c.t.Fatalf("%s: %s: returned %q past the end of the data", c.label, what, it.Key())
		}
		if err := it.Error(); err != nil || !it.Valid() {
			c.t.Fatalf("%s: %s: at %q with valid %v and error %v", c.label, what, it.Key(), it.Valid(), err)
		}
		k := string(it.Key())
		if k != c.keys[i] {
			c.t.Fatalf("%s: %s: returned key %q, want %q", c.label, what, k, c.keys[i])
		}
		v, err := it.Value()
		if err != nil {
			if it.Valid() || it.Error() == nil {
				c.t.Fatalf("%s: %s: Value failed (%v) but the iterator is valid %v with error %v", c.label, what, err, it.Valid(), it.Error())
			}
			ok = false
			break
		}
		if string(v) != c.m[k] {
			c.t.Fatalf("%s: %s: key %q has value %q, want %q", c.label, what, k, v, c.m[k])
		}
		i += step
		if step > 0 {
			ok = it.Next()
		} else {
			ok = it.Prev()
		}
	}
	if ok || n == 0 {
		return
	}
	if i >= 0 && i < len(c.keys) {
		// Stopped before the data ended: only an error may do that.
		if it.Error() == nil {
			c.t.Fatalf("%s: %s: stopped before %q with no error", c.label, what, c.keys[i])
		}
	}
	if err := it.Error(); err != nil {
		c.errs++
		if it.Valid() || it.Next() || it.Prev() || it.Valid() {
			c.t.Fatalf("%s: %s: iterator moved after error %v", c.label, what, err)
		}
		if it.Error() == nil {
			c.t.Fatalf("%s: %s: error %v did not stay", c.label, what, err)
		}
	}
}

// TestScanStopsAtDamagedTable damages one table of a layered DB (a byte
// flip anywhere, a flip in the meta blocks and footer, a truncation or a
// deletion; L0 or deeper) and walks the DB forward, backward and from
// seeks: every entry returned must be the model's next one, and a walk
// that ends early must end invalid with an error that stays.
func TestScanStopsAtDamagedTable(t *testing.T) {
	for _, fc := range formatCases {
		t.Run(fc.name, func(t *testing.T) { scanStopsAtDamagedTable(t, fc) })
	}
}

func scanStopsAtDamagedTable(t *testing.T, fc formatCase) {
	base := t.TempDir()
	m := layeredDBWith(t, base, fc.with(layeredOptions()))
	keys := m.sortedKeys()
	seeds := 60
	if testing.Short() {
		seeds = 20
	}
	errs := 0
	for seed := 0; seed < seeds; seed++ {
		rng := rand.New(rand.NewSource(int64(seed)))
		dir := t.TempDir()
		copyDir(t, base, dir)
		o := fc.with(layeredOptions())
		o.MmapRead = seed%3 == 2
		db := mustOpen(t, dir, o)
		// Damage a table after Open and before any read, so that the
		// reads meet it (the readers open tables lazily).
		tables := filesOf(t, dir, fileTable)
		sort.Strings(tables)
		label := fmt.Sprintf("seed %d (%s, mmap %v): %s", seed, fc.name, o.MmapRead, damageTable(t, rng, tables[rng.Intn(len(tables))]))
		c := &scanChecker{t: t, keys: keys, m: m, label: label}
		it, err := db.NewIter(nil)
		if err != nil {
			// An L0 table that cannot be opened fails NewIter.
			db.Close()
			errs++
			continue
		}
		c.check(it, it.First(), 0, 1, len(keys)+1, "forward scan")
		c.check(it, it.Last(), len(keys)-1, -1, len(keys)+1, "reverse scan")
		for j := 0; j < 20; j++ {
			target := fmt.Sprintf("key%05d", rng.Intn(1600))
			i := sort.SearchStrings(keys, target)
			c.check(it, it.SeekGE([]byte(target)), i, 1, 30, "SeekGE "+target)
			c.check(it, it.SeekLT([]byte(target)), i-1, -1, 30, "SeekLT "+target)
			le := i - 1
			if i < len(keys) && keys[i] == target {
				le = i
			}
			c.check(it, it.SeekLE([]byte(target)), le, -1, 30, "SeekLE "+target)
			// Changing direction re-seeks internally.
			if it.SeekGE([]byte(target)) && it.Prev() {
				c.check(it, true, i-1, -1, 10, "SeekGE+Prev "+target)
			}
		}
		it.Close()
		db.Close()
		if c.errs > 0 {
			errs++
		}
	}
	t.Logf("%d of %d damaged DBs gave an error, none a wrong entry", errs, seeds)
	if errs < seeds/2 {
		t.Fatalf("only %d of %d damaged DBs gave an error: the damage misses the tables", errs, seeds)
	}
}

// TestCompactionStopsAtDamagedTable requires a compaction whose input has a
// bad block to fail with the error and install nothing: the version still
// names the input tables and no output table is left in the directory.
func TestCompactionStopsAtDamagedTable(t *testing.T) {
	for _, fc := range formatCases {
		for _, mmap := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/mmap=%v", fc.name, mmap), func(t *testing.T) {
				compactionStopsAtDamagedTable(t, fc, mmap)
			})
		}
	}
}

// compactionStopsAtDamagedTable damages a byte near the start of the newer
// L0 table (block) or of the first L1 table (rtable: the level below L0
// is written in the case's format) and compacts L0 into L1.
func compactionStopsAtDamagedTable(t *testing.T, fc formatCase, mmap bool) {
	base := t.TempDir()
	m := layeredDBWith(t, base, fc.with(layeredOptions()))
	o := fc.with(layeredOptions())
	o.MmapRead = mmap
	db := mustOpen(t, base, o)
	defer db.Close()
	fc.requireFormat(t, db)
	before := filesOf(t, base, fileTable)
	level := 0
	if fc.format == options.TableFormatRTable {
		level = 1
	}
	files := db.def.current.levels[level]
	victim := files[0]
	for _, f := range files {
		if level == 0 && f.num > victim.num {
			victim = f
		}
	}
	flipByte(t, tableName(base, victim.num), 100)
	err := db.Compact(nil, nil, -1)
	if err == nil {
		t.Fatal("compaction over a damaged table succeeded")
	}
	after := filesOf(t, base, fileTable)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("tables before %v, after the failed compaction %v", before, after)
	}
	found := false
	for _, f := range db.def.current.levels[level] {
		found = found || f.num == victim.num
	}
	if !found {
		t.Fatalf("the damaged input left the version after a failed compaction (%v)", err)
	}
	// Point reads of keys in other tables still answer correctly.
	var checked int
	for k, v := range m {
		if checked == 50 {
			break
		}
		var got string
		found, err := db.Get([]byte(k), func(b []byte) { got = string(b) })
		if err != nil {
			continue
		}
		if !found || got != v {
			t.Fatalf("Get %q = %q, %v; want %q", k, got, found, v)
		}
		checked++
	}
}
